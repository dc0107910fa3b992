// A widget's data kept per company, day, parameters and reader's permissions while the collections it is made of are
// unchanged (widgets that name their `sources`); the others read afresh. A dashboard polls its widgets every few seconds.
import { preparedPage } from '../preparedPages.js';
import type { WidgetDefinition, WidgetReadContext } from './widgetDefinition.js';

export function widgetData(widget: WidgetDefinition, params: Record<string, unknown>, ctx: WidgetReadContext): Promise<unknown> {
  const [first, ...others] = widget.sources ?? [];
  if (!first) return widget.read(params, ctx);
  const key = {
    ...first,
    alsoFrom: others,
    query: `widget ${JSON.stringify([widget.id, ctx.today, params])}`,
    variant: [...ctx.permissions].sort().join(' '),
  };
  return preparedPage(ctx, key, () => widget.read(params, ctx));
}
