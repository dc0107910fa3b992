// What the /productos routes share: the product's route kit (its 404 and write answer).
import { productView } from '../../../projections/productos/productDocs.js';
import { productModel } from '../../../queries/productos/products.js';
import { recordKit } from '../shared/recordRoutes.js';
import { ProductView, READ, TAG, WRITE } from './schemas.js';

export const products = recordKit({
  tag: TAG,
  base: '/productos',
  read: READ,
  write: WRITE,
  noun: 'product',
  model: productModel,
  view: productView,
  viewSchema: ProductView,
});
