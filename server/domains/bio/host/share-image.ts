import { createRequire } from "node:module";
import { renderAsync } from "@resvg/resvg-js";
import { themeOf } from "#isomorphic/bio-theme";
import type { PublicBioPage } from "#server/domains/bio/public-page";
import type { BioSite } from "./page-html";

/**
 * The page's Open Graph image (1200×630 PNG): its name, the start of its
 * about text and its address, in the page's theme: its text on its
 * background, its address on a bar of its button colour (pairs the theme
 * holds to 4.5:1). Drawn as SVG here and
 * rasterised by resvg with the DejaVu fonts shipped from npm
 * (`dejavu-fonts-ttf`), never the machine's fonts, so every server draws the
 * same picture. The host keeps one per page version (server/domains/bio/host/pages.ts).
 */
export const SHARE_WIDTH = 1200;
export const SHARE_HEIGHT = 630;

const require = createRequire(import.meta.url);
const FONT_FILES = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"].map((file) => require.resolve(`dejavu-fonts-ttf/ttf/${file}`));

const TEXT_LEFT = 80;
const TEXT_WIDTH = 1040;

function xml(text: string): string {
  // XML 1.0 allows no control characters but tab and newline; names never need those anyway.
  return text.replace(/[\p{Cc}]/gu, " ").replace(/[&<>"']/g, (c) => `&#${c.codePointAt(0)};`);
}

/**
 * Lines of at most `perLine` characters, broken at spaces where possible, at
 * most `maxLines` of them, the last ending in "…" when text was left out.
 * DejaVu Sans is wide and regular enough that a character count is a fair
 * measure of width.
 */
export function wrapText(text: string, perLine: number, maxLines: number): string[] {
  const words = text.replace(/\s+/g, " ").trim().split(" ").filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (let i = 0; i < words.length; i++) {
    let word = words[i]!;
    while ([...word].length > perLine) {
      // A word longer than a line (a URL, a name without spaces) is cut.
      if (line) {
        lines.push(line);
        line = "";
      }
      const chars = [...word];
      lines.push(chars.slice(0, perLine).join(""));
      word = chars.slice(perLine).join("");
    }
    const candidate = line ? `${line} ${word}` : word;
    if ([...candidate].length <= perLine) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
    if (lines.length >= maxLines) break;
  }
  if (line && lines.length < maxLines) lines.push(line);
  const shown = lines.slice(0, maxLines);
  const all = shown.join(" ").replace(/\s+/g, "");
  if (all.length < text.replace(/\s+/g, "").length && shown.length > 0) {
    const last = [...shown[shown.length - 1]!];
    shown[shown.length - 1] = `${last.slice(0, Math.max(0, perLine - 1)).join("").trimEnd()}…`;
  }
  return shown;
}

function textLines(lines: string[], y: number, lineHeight: number, attributes: string): string {
  const spans = lines.map((line, i) => `<tspan x="${TEXT_LEFT}" y="${y + i * lineHeight}">${xml(line)}</tspan>`).join("");
  return `<text ${attributes}>${spans}</text>`;
}

/** The image as SVG (exported for tests: it must escape whatever the page holds). */
type SharedPage = Pick<PublicBioPage, "name" | "blurb" | "customEnding"> & Partial<Pick<PublicBioPage, "theme">>;

export function shareImageSvg(page: SharedPage, site: BioSite): string {
  const theme = themeOf(page.theme);
  const name = wrapText(page.name, 25, 2);
  const nameTop = 200;
  const blurbTop = nameTop + name.length * 76 + 30;
  const blurb = wrapText(page.blurb, 52, name.length > 1 ? 3 : 4);
  const address = `${new URL(site.bioOrigin).host}/${page.customEnding}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_WIDTH}" height="${SHARE_HEIGHT}" viewBox="0 0 ${SHARE_WIDTH} ${SHARE_HEIGHT}">` +
    `<rect width="${SHARE_WIDTH}" height="${SHARE_HEIGHT}" fill="${theme.background}"/>` +
    `<circle cx="1150" cy="10" r="140" fill="${theme.button}"/>` +
    `<circle cx="1150" cy="10" r="88" fill="${theme.background}"/>` +
    `<rect x="${TEXT_LEFT}" y="96" width="120" height="12" rx="6" fill="${theme.button}"/>` +
    textLines(name, nameTop, 76, `font-family="DejaVu Sans" font-weight="bold" font-size="64" fill="${theme.text}"`) +
    textLines(blurb, blurbTop, 46, `font-family="DejaVu Sans" font-size="32" fill="${theme.text}"`) +
    `<rect x="0" y="${SHARE_HEIGHT - 96}" width="${SHARE_WIDTH}" height="96" fill="${theme.button}"/>` +
    `<text x="${TEXT_LEFT}" y="${SHARE_HEIGHT - 36}" font-family="DejaVu Sans" font-weight="bold" font-size="32" fill="${theme.buttonText}">${xml(
      wrapText(address, 44, 1)[0] ?? "",
    )}</text>` +
    `<text x="${TEXT_LEFT + TEXT_WIDTH}" y="${SHARE_HEIGHT - 36}" text-anchor="end" font-family="DejaVu Sans" font-size="28" fill="${theme.buttonText}">${xml(site.appName)}</text>` +
    `</svg>`
  );
}

/** The PNG, rasterised off the main thread (resvg's async render runs on libuv's pool). */
export async function renderShareImage(page: SharedPage, site: BioSite): Promise<Buffer> {
  const image = await renderAsync(shareImageSvg(page, site), {
    font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" },
    fitTo: { mode: "original" },
  });
  return image.asPng();
}
