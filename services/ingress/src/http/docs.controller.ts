import { Controller, Get, Header } from '@nestjs/common';
import { OPENAPI, operationsOf, type OpenApiDocument } from './openapi.js';

const SPEC_PATH = '/docs/openapi.json';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Escapes text and shows its `backticked` spans as code. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** A self-contained page (no external assets): one table row per operation. */
export function renderDocsHtml(doc: OpenApiDocument): string {
  const rows = operationsOf(doc)
    .map(({ method, path, operation }) => {
      const auth = operation.security?.length === 0 ? 'public' : 'bearer JWT';
      const statuses = Object.keys(operation.responses).join(' ');
      const description = operation.description ? `<br><small>${prose(operation.description)}</small>` : '';
      return (
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(path)}</code></td>` +
        `<td>${escapeHtml(operation.summary)}${description}</td><td>${auth}</td><td>${statuses}</td></tr>`
      );
    })
    .join('\n');
  const title = escapeHtml(`${doc.info.title} ${doc.info.version}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; max-width: 72rem; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #ccc; padding: 0.4rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
</style>
</head>
<body>
<h1>${title}</h1>
<p>${prose(doc.info.description)}</p>
<p>OpenAPI ${escapeHtml(doc.openapi)} document: <a href="${SPEC_PATH}">${SPEC_PATH}</a></p>
<table>
<thead><tr><th>method</th><th>path</th><th>what it does</th><th>auth</th><th>statuses</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</body>
</html>
`;
}

const DOCS_HTML = renderDocsHtml(OPENAPI);

/** API.md: "OpenAPI is served at /docs". */
@Controller()
export class DocsController {
  @Get('docs')
  @Header('Content-Type', 'text/html; charset=utf-8')
  docs(): string {
    return DOCS_HTML;
  }

  @Get('docs/openapi.json')
  openapi(): OpenApiDocument {
    return OPENAPI;
  }
}
