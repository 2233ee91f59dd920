// Converts lesson files of format version 1 (CSS selectors) to version 2 (named states, intents
// and targets) in place, with the function the page's loader uses (src/lessons/migrate.ts):
//   cd www && npm run migrate-lessons -- src/lessons/data/*.json
// A file already at version 2 is left alone; a selector with no version-2 equivalent is named and
// the file is not written (exit status 1).
import { readFileSync, writeFileSync } from 'node:fs';
import { parseLesson } from '../src/lessons/format';
import { migrateV1 } from '../src/lessons/migrate';

let failed = 0;
for (const path of process.argv.slice(2)) {
  const name = path.split('/').pop() ?? path;
  const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  if (json.version === 2) {
    console.log(`${name}: already version 2`);
    continue;
  }
  const m = migrateV1(json, name);
  const problems = [...m.stepProblems.values()].flat();
  // The result must read as version 2 with no problem.
  try {
    problems.push(...parseLesson(m.lesson, name).problems);
  } catch (e) {
    problems.push(e instanceof Error ? e.message : String(e));
  }
  if (problems.length) {
    failed++;
    console.error(`${name}: not converted:\n  ${problems.join('\n  ')}`);
    continue;
  }
  writeFileSync(path, `${JSON.stringify(m.lesson, null, 2)}\n`);
  console.log(`${name}: converted to version 2`);
}
process.exit(failed ? 1 : 0);
