import { useState, type CSSProperties } from "react";
import { useHydrated } from "#app/lib/use-hydrated";

/**
 * "Share {name}'s page" after paying. With JavaScript: the system's share
 * sheet where there is one (phones, in-app browsers), else the address is
 * copied and "Copied" is announced. Without JavaScript it is a plain link to
 * the page, whose address the browser can share. No popup, no new window.
 */
export function ShareButton({ url, name, className, style }: { url: string; name: string; className: string; style?: CSSProperties }) {
  // Only once hydrated does the button work; until then (and without JavaScript) the link does.
  const enhanced = useHydrated();
  const [status, setStatus] = useState("");
  const label = `Share ${name}'s page`;
  if (!enhanced) {
    return (
      <a href={url} className={className} style={style}>
        {label}
      </a>
    );
  }
  const share = async () => {
    setStatus("");
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title: name, url });
        return;
      } catch (error) {
        // The person closed the share sheet: nothing to say.
        if (error instanceof DOMException && error.name === "AbortError") return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setStatus("Copied");
    } catch {
      setStatus(`Copy this link: ${url}`);
    }
  };
  return (
    <span className="inline-flex flex-wrap items-center gap-3">
      <button type="button" onClick={() => void share()} className={className} style={style}>
        {label}
      </button>
      <span role="status" className="text-sm font-semibold">
        {status}
      </span>
    </span>
  );
}
