import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BIO_FONTS,
  checkContrast,
  contrastRatio,
  DEFAULT_THEME,
  fontStack,
  formatRatio,
  isWellFormedTheme,
  normaliseHex,
  relativeLuminance,
  THEME_PRESETS,
  themeOf,
  type BioTheme,
} from "#isomorphic/bio-theme";

const hex6 = fc.integer({ min: 0, max: 0xffffff }).map((value) => `#${value.toString(16).padStart(6, "0")}`);

describe("contrast (WCAG 2.x)", () => {
  it("gives the ratios WCAG's own examples give", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBe(1);
    expect(relativeLuminance("#ffffff")).toBeCloseTo(1, 10);
    expect(relativeLuminance("#000000")).toBe(0);
    // #767676 on white is the lightest grey that passes 4.5:1; #777777 is not.
    expect(contrastRatio("#767676", "#ffffff")).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio("#777777", "#ffffff")).toBeLessThan(4.5);
  });

  it("is symmetric and between 1 and 21", () => {
    fc.assert(
      fc.property(hex6, hex6, (a, b) => {
        const ratio = contrastRatio(a, b);
        expect(ratio).toBe(contrastRatio(b, a));
        expect(ratio).toBeGreaterThanOrEqual(1);
        expect(ratio).toBeLessThanOrEqual(21.000001);
      }),
    );
  });

  it("writes ratios rounded down, so one just under a minimum never reads as meeting it", () => {
    expect(formatRatio(4.4999)).toBe("4.4:1");
    expect(formatRatio(4.5)).toBe("4.5:1");
    expect(formatRatio(3)).toBe("3:1");
    expect(formatRatio(21)).toBe("21:1");
    expect(formatRatio(7.25)).toBe("7.2:1");
  });

  it("names the pair, its ratio and what it needs when it fails", () => {
    const [text, buttonText, button] = checkContrast({ background: "#777777", text: "#999999", button: "#ffffff", buttonText: "#eeeeee" });
    expect(text!.passes).toBe(false);
    expect(text!.message).toBe("Text and background contrast is 1.5:1; it needs at least 4.5:1 to be readable");
    expect(buttonText!.message).toBe("Button text and button contrast is 1.1:1; it needs at least 4.5:1 to be readable");
    expect(button!.message).toMatch(/^Buttons and background contrast is 4\.4:1/);
    expect(button!.passes).toBe(true);
  });
});

describe("hex colours", () => {
  it("takes #rgb and #rrggbb in any case, with or without #, and writes them one way", () => {
    expect(normaliseHex("#ABC")).toBe("#aabbcc");
    expect(normaliseHex(" 1A2b3C ")).toBe("#1a2b3c");
    expect(normaliseHex("#603F8B")).toBe("#603f8b");
    for (const bad of ["", "#", "#12", "#1234", "#12345g", "red", "rgb(0,0,0)", "#1234567", "#fff;}"]) expect(normaliseHex(bad)).toBeNull();
  });

  it("accepts every 6-digit colour back as itself", () => {
    fc.assert(
      fc.property(hex6, (hex) => {
        expect(normaliseHex(hex.toUpperCase())).toBe(hex);
      }),
    );
  });
});

describe("presets and fonts", () => {
  it("offers at least six named presets, the Sponsorgrid look first, each passing WCAG AA", () => {
    expect(THEME_PRESETS.length).toBeGreaterThanOrEqual(6);
    expect(THEME_PRESETS[0]!.theme).toBe(DEFAULT_THEME);
    expect(new Set(THEME_PRESETS.map((preset) => preset.name)).size).toBe(THEME_PRESETS.length);
    for (const preset of THEME_PRESETS) {
      expect(isWellFormedTheme(preset.theme), preset.id).toBe(true);
      expect(preset.theme.preset).toBe(preset.id);
      for (const check of checkContrast(preset.theme)) expect(check.passes, `${preset.name}: ${check.message}`).toBe(true);
    }
  });

  it("has font stacks that end in a generic family and name no web font to download", () => {
    expect(BIO_FONTS.map((font) => font.id)).toEqual(expect.arrayContaining(["system", "serif", "rounded", "mono"]));
    for (const font of BIO_FONTS) {
      expect(font.stack).toMatch(/(sans-serif|serif|monospace)$/);
      expect(font.stack).not.toMatch(/url\(|[;{}<>]/);
    }
    expect(fontStack("no-such-font")).toBe(BIO_FONTS[0].stack);
  });
});

describe("themeOf", () => {
  it("is the stored theme when well formed, and the default for anything else", () => {
    const paper = THEME_PRESETS[1]!.theme;
    expect(themeOf(paper)).toBe(paper);
    expect(themeOf(null)).toBe(DEFAULT_THEME);
    expect(themeOf(undefined)).toBe(DEFAULT_THEME);
    for (const bad of [{ ...paper, text: "#FFF" }, { ...paper, font: "papyrus" }, { ...paper, preset: "}" }, { ...paper, background: "red;}" }, {}]) {
      expect(themeOf(bad as BioTheme)).toBe(DEFAULT_THEME);
    }
  });
});
