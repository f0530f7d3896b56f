export {
  findLogs,
  loadFile,
  loadTrajectories,
  loadTrajectoryFile,
  type Found,
  type LoadResult,
  type Skipped,
} from './load';
export { TrajectoryError, printable } from './errors';
export {
  callsOf,
  contextOf,
  type ModelCall,
  type RecordedUsage,
  type Trajectory,
  type TrajectoryFormat,
} from './types';
export { IMPORTERS } from './detect';
