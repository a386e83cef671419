export * from './roles.js';
export * from './permissions.js';
export * from './menus.js';
export * from './messages.js';
export * from './schemas/primitives.js';
export * from './schemas/auth.js';
export * from './schemas/masters/index.js';
export * from './schemas/invoices.js';
