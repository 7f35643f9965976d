import { enumOf } from './operation.js';
export const a = enumOf<'x' | 'y'>()(['x']);
export const b = enumOf<'x' | 'y'>()(['x', 'y', 'z']);
export const c = enumOf<'x' | 'y'>()(['y', 'x']);
