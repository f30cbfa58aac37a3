/** Server-rendered Markdown from content/ (our own files; raw HTML is escaped). */
export function Prose({ html }: { html: string }) {
  return <div className="prose-content" dangerouslySetInnerHTML={{ __html: html }} />;
}
