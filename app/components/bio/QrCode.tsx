/**
 * The page's QR code, inline. The SVG comes from the server's QR library
 * (server/domains/bio/qr.ts) and holds only paths; the wrapper names it for screen readers.
 */
export function QrCode({ svg, address }: { svg: string; address: string }) {
  return (
    <div
      role="img"
      aria-label={`QR code for ${address}`}
      className="aspect-square w-full max-w-56 rounded-lg border border-primary/15 bg-white [&>svg]:block [&>svg]:h-full [&>svg]:w-full"
      dangerouslySetInnerHTML={{ __html: svg }}
      data-qr
    />
  );
}
