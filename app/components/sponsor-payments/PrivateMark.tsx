/** "Private" beside a name: the supporter asked to stay off the public wall, so they are thanked in private. */
export function PrivateMark() {
  return (
    <span className="ml-2 inline-block rounded-full bg-primary/10 px-2 text-xs font-semibold align-middle">
      Private<span className="sr-only"> (asked not to be shown on your public page)</span>
    </span>
  );
}
