// Text measured as the services measure it: characters are Unicode code points (an emoji is one),
// bytes are UTF-8 bytes.
export function measure(text) {
  let chars = 0;
  let bytes = 0;
  for (const ch of text) {
    chars += 1;
    const cp = ch.codePointAt(0);
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return { chars, bytes };
}
