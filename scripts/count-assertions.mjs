// Counts non-null assertions and `as` casts in src/ by reading the TypeScript syntax tree, so a `!`
// inside a string or a `!==` is never counted. Usage: node scripts/count-assertions.mjs [dir] [--list]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const list = args.includes('--list');
const root = args.find((arg) => !arg.startsWith('--')) ?? 'src';

const files = readdirSync(root, { recursive: true })
  .map(String)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => join(root, name));

const counts = { nonNull: 0, nonNullOnIndex: 0, asCasts: 0, asConst: 0 };
for (const file of files) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isNonNullExpression(node)) {
      counts.nonNull++;
      const onIndex = ts.isElementAccessExpression(node.expression);
      if (onIndex) counts.nonNullOnIndex++;
      if (list) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        console.log(`${file}:${line + 1}: ${onIndex ? ']!' : '!'} ${node.getText().slice(0, 70)}`);
      }
    } else if (ts.isAsExpression(node)) {
      const isConst = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText() === 'const';
      if (isConst) counts.asConst++;
      else counts.asCasts++;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
console.log(`${root}: ${files.length} files, ${counts.nonNull} non-null assertions (${counts.nonNullOnIndex} on an index), ${counts.asCasts} as casts (+${counts.asConst} as const)`);
