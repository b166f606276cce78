// Decides from a file's first bytes whether it is text worth showing. A NUL byte means binary (as
// git and grep decide); otherwise text is valid UTF-8 with few control characters.

/** Share of suspicious characters in the sample above which a file is called binary. */
const MAX_SUSPICIOUS_RATIO = 0.1;

const lenient = new TextDecoder('utf-8');

export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  if (sample.includes(0)) return true;
  const text = lenient.decode(sample);
  let suspicious = 0;
  // The sample may end inside a multi-byte character: ignore the last few decoded characters.
  const end = Math.max(0, text.length - 3);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (
      c === 0xfffd ||
      (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x1b && c !== 0x08)
    ) {
      suspicious++;
    }
  }
  return end > 0 && suspicious / end > MAX_SUSPICIOUS_RATIO;
}

// ignoreBOM keeps a byte-order mark in the text, so an edit writes it back unchanged.
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes bytes that must be UTF-8 text (edits); null when they are not. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}
