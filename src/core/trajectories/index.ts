export { parseTrajectory, idFromFile } from './detect';
export { loadTrajectories, loadTrajectoryFile, type LoadResult, type Skipped } from './load';
export { TrajectoryError } from './errors';
