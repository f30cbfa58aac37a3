import { fontStack, THEME_FIELD_NAMES, type ThemePreset } from "#isomorphic/bio-theme";

/**
 * One preset as a radio card drawn in its own colours, so the choice reads without JavaScript:
 * the new-page form's theme choice and the editor's look both offer the presets with it.
 */
export function PresetCard({ preset, idPrefix, checked, onChoose }: { preset: ThemePreset; idPrefix: string; checked: boolean; onChoose: (id: string) => void }) {
  const { id, name, theme } = preset;
  return (
    <div>
      <input type="radio" id={`${idPrefix}-${id}`} name={THEME_FIELD_NAMES.preset} value={id} checked={checked} onChange={() => onChoose(id)} className="peer sr-only" />
      <label
        htmlFor={`${idPrefix}-${id}`}
        className="block cursor-pointer rounded-xl border-2 border-ink/15 p-1 peer-checked:border-primary peer-checked:ring-2 peer-checked:ring-primary peer-focus-visible:outline peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary"
      >
        <span aria-hidden="true" className="block rounded-lg px-3 py-3" style={{ background: theme.background, color: theme.text, fontFamily: fontStack(theme.font) }}>
          <span className="block text-sm font-semibold">Aa</span>
          <span className="mt-1 block rounded-full px-2 py-1 text-center text-xs font-semibold" style={{ background: theme.button, color: theme.buttonText }}>
            Link
          </span>
        </span>
        <span className="mt-1 flex items-center justify-between px-1 text-sm font-medium">
          {name}
          {checked ? <span aria-hidden="true">✓</span> : null}
        </span>
      </label>
    </div>
  );
}
