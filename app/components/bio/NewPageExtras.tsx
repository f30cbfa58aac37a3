import { THEME_PRESETS } from "#isomorphic/bio-theme";
import { ACCEPT_TIPS_FIELD } from "#isomorphic/new-page";
import { PresetCard } from "./PresetCard";

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
        {THEME_PRESETS.map((option) => (
          <PresetCard key={option.id} preset={option} idPrefix="new-theme" checked={preset === option.id} onChoose={onChange} />
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
