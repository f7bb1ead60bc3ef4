import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";

/** A fresh browser context (empty storage) on the console of a started platform. */
export class ConsoleSession {
  /** Every admin API request the page made, with its Authorization header. */
  readonly apiRequests: { url: string; authorization: string | undefined }[] = [];
  /** Console errors and failed page loads: a view that throws shows up here. */
  readonly pageErrors: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly consoleUrl: string,
  ) {
    page.on("request", (req) => {
      if (new URL(req.url()).pathname.startsWith("/admin/")) {
        this.apiRequests.push({ url: req.url(), authorization: req.headers().authorization });
      }
    });
    page.on("pageerror", (error) => this.pageErrors.push(String(error)));
  }

  static async open(
    browser: Browser,
    adminUrl: string,
    viewport: { width: number; height: number },
  ): Promise<ConsoleSession> {
    const context = await browser.newContext({ viewport });
    // The copy button of a new client secret writes to the clipboard, as an operator's browser lets it.
    await context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: new URL(adminUrl).origin,
    });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    return new ConsoleSession(context, page, `${adminUrl}/console`);
  }

  async goto(path: string): Promise<void> {
    await this.page.goto(`${this.consoleUrl}${path}`);
  }

  /** Signs in with a machine token (the sign-in page's "Use a machine token"). */
  async signIn(token: string): Promise<void> {
    await this.goto("/");
    await this.fillToken(token);
    await this.page.getByRole("navigation", { name: "Main" }).waitFor();
  }

  /** Opens "Use a machine token", types the token and submits it. */
  async fillToken(token: string): Promise<void> {
    await this.page.getByText("Use a machine token").click();
    await this.page.getByLabel("Machine token").fill(token);
    await this.page.getByRole("button", { name: "Sign in with token" }).click();
  }

  /** Signs in as an operator with user name, password and authenticator code. */
  async signInAsOperator(username: string, password: string, code: string): Promise<void> {
    await this.goto("/");
    await this.page.getByLabel("User name").fill(username);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByLabel("Authenticator code").fill(code);
    await this.page.getByRole("button", { name: "Sign in", exact: true }).click();
    await this.page.getByRole("navigation", { name: "Main" }).waitFor();
  }

  /** Follows a link of the main navigation, as an operator would. */
  async nav(label: string): Promise<void> {
    await this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label }).click();
    await this.page.getByRole("heading", { level: 1, name: label }).waitFor();
  }

  /** The polite result of the last action (`role=status` notice). */
  async notice(text: string | RegExp): Promise<void> {
    await this.page.locator(".notice").filter({ hasText: text }).first().waitFor();
  }

  /** The transaction page's current status (the live status line). */
  async waitForStatus(status: string, timeout = 20_000): Promise<void> {
    await this.page
      .locator(".status-line .badge", { hasText: new RegExp(`^${status}$`) })
      .waitFor({ timeout });
  }

  /** What the page keeps in the browser: sessionStorage's entries, localStorage's size, and its cookies. */
  storage(): Promise<{ session: Record<string, string>; localCount: number; cookies: string }> {
    return this.page.evaluate(() => {
      const w = globalThis as unknown as BrowserWindow;
      const session: Record<string, string> = {};
      for (let i = 0; i < w.sessionStorage.length; i++) {
        const key = w.sessionStorage.key(i) ?? "";
        session[key] = w.sessionStorage.getItem(key) ?? "";
      }
      return { session, localCount: w.localStorage.length, cookies: w.document.cookie };
    });
  }

  clipboardText(): Promise<string> {
    return this.page.evaluate(() =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText(),
    );
  }

  /** Replaces every value in sessionStorage, as if the stored token had been revoked meanwhile. */
  overwriteSessionStorage(value: string): Promise<void> {
    return this.page.evaluate((v) => {
      const { sessionStorage } = globalThis as unknown as BrowserWindow;
      for (let i = 0; i < sessionStorage.length; i++) sessionStorage.setItem(sessionStorage.key(i) ?? "", v);
    }, value);
  }

  async close(): Promise<void> {
    expect(this.pageErrors, "uncaught errors in the page").toEqual([]);
    await this.context.close();
  }
}

/** The few browser globals the tests read inside the page (the test project is typed for Node, not the DOM). */
export interface BrowserWindow {
  sessionStorage: BrowserStorage;
  localStorage: BrowserStorage;
  document: { cookie: string; documentElement: { scrollWidth: number } };
  innerWidth: number;
}
interface BrowserStorage {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}
