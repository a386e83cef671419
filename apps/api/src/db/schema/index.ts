export * from './core.js';
export * from './masters.js';
export * from './invoices.js';
export * from './dashboards.js';
export * from './optimization.js';
export * from './clients.js';
export * from './exports.js';
export * from './alerts.js';
