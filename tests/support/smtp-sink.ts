import type { AddressInfo } from "node:net";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  /** Every header by its lowercase name (the last one wins), e.g. "list-unsubscribe". */
  headers: Record<string, string>;
};

export type SmtpSink = {
  /** smtp://127.0.0.1:PORT, ready for SMTP_URL. */
  url: string;
  port: number;
  /** Every mail received so far, oldest first. */
  messages: ReceivedMail[];
  /** The first mail to `to` (and matching `subject`), whether it has already arrived or arrives later. */
  waitForMail(to: string, options?: { timeoutMs?: number; subject?: RegExp }): Promise<ReceivedMail>;
  close(): Promise<void>;
};

type Waiter = { matches(mail: ReceivedMail): boolean; resolve(mail: ReceivedMail): void };

// Stops at whitespace, quotes and angle brackets, the usual ends of a URL in text.
const URL_IN_TEXT = /https?:\/\/[^\s"'<>]+/g;
const HREF = /href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

/**
 * A real SMTP server on loopback that keeps what it receives, so tests exercise the actual
 * SMTP path and follow the links in the mail. Plain Node (no test-runner imports), so
 * Vitest and Playwright can both use it.
 */
export async function startSmtpSink(options: { port?: number; /** Holds every reply to DATA this long: a slow mail server. */ delayMs?: number } = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<Waiter>();

  const server = new SMTPServer({
    authOptional: true,
    // Plain connections only: no certificate to manage, and nodemailer won't try to upgrade.
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        const envelopeTo = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        PostalMime.parse(Buffer.concat(chunks))
          .then(async (parsed) => {
            if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
            receive(toReceivedMail(parsed, envelopeTo));
            callback();
          })
          .catch(callback);
      });
    },
  });

  function receive(mail: ReceivedMail) {
    messages.push(mail);
    for (const waiter of waiters) {
      if (!waiter.matches(mail)) continue;
      waiters.delete(waiter);
      waiter.resolve(mail);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitForMail(to, { timeoutMs = 10_000, subject } = {}) {
      const wanted = to.toLowerCase();
      const matches = (mail: ReceivedMail) =>
        mail.to.some((address) => address.toLowerCase() === wanted) && (!subject || subject.test(mail.subject));
      const already = messages.find(matches);
      if (already) return Promise.resolve(already);

      return new Promise<ReceivedMail>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const seen = messages.map((mail) => `${mail.to.join(", ")}: ${mail.subject}`).join("; ") || "none";
          const what = subject ? `mail to ${to} with subject ${subject}` : `mail to ${to}`;
          reject(new Error(`No ${what} arrived within ${timeoutMs} ms (received: ${seen})`));
        }, timeoutMs);
        const waiter: Waiter = {
          matches,
          resolve(mail) {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function toReceivedMail(parsed: Awaited<ReturnType<typeof PostalMime.parse>>, envelopeTo: string[]): ReceivedMail {
  // The envelope is who the mail was really delivered to; headers only say who it was addressed to.
  const headerTo = (parsed.to ?? []).flatMap((address) => (address.group ? address.group : [address])).map((box) => box.address);
  const text = parsed.text ?? "";
  const html = parsed.html ?? "";
  return {
    to: [...new Set([...envelopeTo, ...headerTo].filter(Boolean))],
    from: parsed.from && !parsed.from.group ? parsed.from.address : "",
    subject: parsed.subject ?? "",
    text,
    html,
    links: extractLinks(text, html),
    headers: Object.fromEntries(parsed.headers.map((header) => [header.key.toLowerCase(), header.value])),
  };
}

function extractLinks(text: string, html: string): string[] {
  const fromText = text.match(URL_IN_TEXT) ?? [];
  const fromHtml = [...html.matchAll(HREF)].map((match) => decodeEntities(match[1] ?? match[2] ?? ""));
  const links = [...fromText, ...fromHtml].map((link) => link.replace(/[.,;:!?)\]]+$/, "")).filter((link) => /^https?:\/\//i.test(link));
  return [...new Set(links)];
}

/** Enough of HTML's entity decoding for attribute values in generated mail. */
function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
