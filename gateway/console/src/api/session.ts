/**
 * The admin token lives in sessionStorage only: it survives a reload of this tab and is gone when the
 * tab or browser closes. Never localStorage, never a cookie.
 */
const KEY = "payouts.console.admin-token";

export function storedToken(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function storeToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}
