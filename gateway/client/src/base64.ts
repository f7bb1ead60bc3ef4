/** Base64 of bytes with the Web's btoa, which every runtime has. */
export function base64Encode(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The bytes of standard base64 text, or undefined when it is not base64. */
export function base64Decode(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

/** `Basic base64(client_id:client_secret)`, UTF-8 encoded (RFC 7617). */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  return `Basic ${base64Encode(new TextEncoder().encode(`${clientId}:${clientSecret}`))}`;
}
