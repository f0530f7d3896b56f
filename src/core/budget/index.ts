export * from './types';
export { TokenBudget, realSleep, type BudgetOptions, type Sleep } from './budget';
export { backpressureDelay } from './backpressure';
