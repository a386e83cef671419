export * from './core.js';
export * from './masters.js';
