export * from './common.js';
export * from './resources.js';
export * from './labels.js';
