// The Generador group's names: its tag and the permissions over module definitions.
import { groupNames } from '../shared/groupNames.js';

export const { TAG, READ, WRITE } = groupNames('generador', 'Generador');
