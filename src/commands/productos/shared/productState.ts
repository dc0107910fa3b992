// A product's state as its events leave it: the decider judges on it and the read side folds its documents with it.
import type { ProductEvent, ProductFields } from '../productEvents.js';

export interface ProductState {
  exists: boolean;
  fields: ProductFields | null;
  active: boolean;
}
export const initialProductState: ProductState = { exists: false, fields: null, active: false };

export function applyProductChanges(current: ProductFields, changes: Record<string, unknown>): ProductFields {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(changes)) {
    if (value === null || value === undefined) delete next[field];
    else next[field] = value;
  }
  return next as unknown as ProductFields;
}

export function evolveProduct(state: ProductState, event: ProductEvent): ProductState {
  switch (event.type) {
    case 'ProductCreated': {
      const { productId: _id, ...fields } = event.data;
      return { exists: true, fields, active: true };
    }
    case 'ProductCorrected':
      return state.fields ? { ...state, fields: applyProductChanges(state.fields, event.data.changes) } : state;
    case 'ProductDeactivated':
      return { ...state, active: false };
  }
}
