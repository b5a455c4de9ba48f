// Turns the synthesized objects into the YAML committed in deploy/, with their comments.
// Written as YAML 1.1, the version Kubernetes reads: a string such as "on" or "yes" is
// quoted there, or the cluster would read a boolean.
import YAML, { isMap, isScalar, isSeq, type Document } from 'yaml';
import type { Manifest, SynthFile } from './manifests.js';

const WIDTH = 100;

/** Wraps a comment into lines of at most WIDTH characters, each starting with a space (`# text`). */
function wrap(text: string, indent = 0): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && indent + 2 + line.length + 1 + word.length > WIDTH) {
      lines.push(` ${line}`);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(` ${line}`);
  return lines.join('\n');
}

/** Puts `text` above the key (or list item) at `path`. */
function note(doc: Document, path: string, text: string): void {
  const keys = path.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k));
  const last = keys.pop();
  const parent = keys.length === 0 ? doc.contents : doc.getIn(keys, true);
  const depth = keys.length * 2 + 2;
  if (isMap(parent)) {
    const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
    if (pair && isScalar(pair.key)) {
      pair.key.commentBefore = wrap(text, depth);
      return;
    }
  } else if (isSeq(parent) && typeof last === 'number') {
    const item = parent.items[last];
    if (item && (isMap(item) || isScalar(item))) {
      item.commentBefore = wrap(text, depth);
      return;
    }
  }
  throw new Error(`render: no ${path} to note`);
}

function renderManifest(m: Manifest): string {
  // No anchors for objects the builders share (one DNS rule in many policies): plain YAML.
  const doc = new YAML.Document(m.object, { version: '1.1', aliasDuplicateObjects: false });
  if (m.comment) note(doc, 'apiVersion', m.comment);
  for (const [path, text] of Object.entries(m.notes ?? {})) note(doc, path, text);
  return doc.toString({ lineWidth: 0 });
}

/** The text of one synthesized file. */
export function renderFile(file: SynthFile): string {
  if ('text' in file) return file.text;
  const header = file.header
    .split('\n')
    .map((l) => `#${wrap(l).replace(/\n/g, '\n#')}`)
    .join('\n');
  return `${header}\n\n${file.manifests.map(renderManifest).join('---\n')}`;
}
