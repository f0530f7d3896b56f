// Public API of Agent Skills discovery for the extension glue and the CLI.
export * from './discover';
export { parseSkillFile, type ParsedSkillFile, type SkillDiagnostic } from './frontmatter';
export { SkillRefresher } from './refresher';
