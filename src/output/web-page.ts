/**
 * The page `--web` writes: each exercise as a card with its pictures and videos, referenced by relative
 * URLs. Its Content-Security-Policy allows no script and no remote asset; every text comes from the
 * catalogue, so every one is HTML-escaped.
 */
import { createHash } from 'node:crypto';
import type { ExerciseRecord } from '../catalogue/types.js';
import { oneLine } from '../util/text.js';
import { recordFields } from './record.js';

/** A picture or video of a card: its name, and its file's URL relative to the page (none: not here). */
export interface PageMedia {
  name: string;
  href?: string;
}

export interface PageCard {
  record: ExerciseRecord;
  images: PageMedia[];
  videos: PageMedia[];
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:64rem;margin:2rem auto;padding:0 1rem}
article{border-top:1px solid #8888;padding:1rem 0}h2{margin:0}.quiet{color:#777;font-weight:normal}
dl{display:grid;grid-template-columns:max-content 1fr;gap:0 1rem}dt{color:#777}dd{margin:0}
figure{display:inline-block;margin:0 1rem 1rem 0;vertical-align:top}img,video{width:min(100%,32rem);height:auto}`;

/** Text safe in HTML text or a quoted attribute: controls removed, `& < > " '` as references. */
function html(text: unknown): string {
  return oneLine(String(text)).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function mediaFigure(media: PageMedia, kind: 'image' | 'video'): string {
  const src = html(media.href);
  const shown = kind === 'image' ? `<img src="${src}" alt="${html(media.name)}">` : `<video controls preload="metadata" src="${src}"></video>`;
  return `<figure>${shown}<figcaption>${html(media.name)}</figcaption></figure>`;
}

function cardHtml({ record, images, videos }: PageCard): string {
  const id = record.id !== undefined && record.id !== (record.displayName ?? record.name) ? ` <span class="quiet">${html(record.id)}</span>` : '';
  const fields = recordFields(record).map(([label, value]) => `<dt>${html(label)}</dt><dd>${html(value)}</dd>`);
  const steps = Array.isArray(record.instructions) ? record.instructions.map((s) => `<li>${html(s)}</li>`) : [];
  const absent = [...images, ...videos].filter((m) => m.href === undefined).map((m) => html(m.name));
  return [
    `<article><h2>${html(record.displayName ?? record.name)}${id}</h2>`,
    fields.length > 0 ? `<dl>${fields.join('')}</dl>` : '',
    steps.length > 0 ? `<ol>${steps.join('')}</ol>` : '',
    ...images.filter((m) => m.href !== undefined).map((m) => mediaFigure(m, 'image')),
    ...videos.filter((m) => m.href !== undefined).map((m) => mediaFigure(m, 'video')),
    absent.length > 0 ? `<p class="quiet">Not on this machine: ${absent.join(', ')}.</p>` : '',
    '</article>',
  ].join('');
}

/** The whole page: a title, notes (what was left out and its cost), the cards. */
export function renderWebPage(title: string, cards: readonly PageCard[], notes: readonly string[] = []): string {
  const styleHash = createHash('sha256').update(STYLE).digest('base64');
  const csp = `default-src 'none'; img-src 'self'; media-src 'self'; style-src 'sha256-${styleHash}'; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)}</title><style>${STYLE}</style></head>
<body><h1>${html(title)}</h1>
${notes.map((n) => `<p class="quiet">${html(n)}</p>\n`).join('')}${cards.map(cardHtml).join('\n')}
</body></html>
`;
}
