import { fontStack, THEME_FIELD_NAMES, THEME_PRESETS } from "#isomorphic/bio-theme";
import { ACCEPT_TIPS_FIELD } from "#isomorphic/new-page";

/**
 * The page's look as one of the presets: radio cards drawn in each preset's
 * own colours, so the choice reads without JavaScript. Custom colours and
 * fonts stay the editor's: a first page starts from a preset.
 */
export function ThemeChoice({ preset, onChange }: { preset: string; onChange: (preset: string) => void }) {
  return (
    <fieldset>
      <legend className="font-medium">Theme</legend>
      <p className="mt-1 text-sm text-muted">Colours and a font for your page, each readable. You can make your own later in the editor.</p>
      <div className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {THEME_PRESETS.map(({ id, name, theme }) => (
          <div key={id}>
            <input
              type="radio"
              id={`new-theme-${id}`}
              name={THEME_FIELD_NAMES.preset}
              value={id}
              checked={preset === id}
              onChange={() => onChange(id)}
              className="peer sr-only"
            />
            <label
              htmlFor={`new-theme-${id}`}
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
                {preset === id ? <span aria-hidden="true">✓</span> : null}
              </span>
            </label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * Tips on or off. The hidden "off" goes first and the ticked box's "on"
 * after it, so the server tells an unticked box from a post without the field.
 */
export function TipsSwitch({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  return (
    <div>
      <input type="hidden" name={ACCEPT_TIPS_FIELD} value="off" />
      <label className="flex min-h-11 items-center gap-3 font-medium">
        <input
          type="checkbox"
          role="switch"
          name={ACCEPT_TIPS_FIELD}
          value="on"
          checked={on}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby="accept-tips-hint"
          className="h-6 w-6 flex-none accent-primary"
        />
        Accept tips
      </label>
      <p id="accept-tips-hint" className="text-sm text-muted">
        Fans can tip you from your page once your payout account is connected. Amounts and a thank-you are in the editor.
      </p>
    </div>
  );
}
