export * from './types';
export { TokenBudget, realSleep, type BudgetLimits, type BudgetOptions, type Sleep } from './budget';
export { backpressureDelay } from './backpressure';
