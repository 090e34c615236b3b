// A v1 and a v2 flow against a PixGate with the types openapi-typescript
// generates from docs/openapi.yaml (schema.d.ts, written beside this file by
// the test that runs it) and openapi-fetch, type-checked by tsc.
//
// The integrator behind PIXGATE_KEY has R$ 197,143.76 available, a cash-in
// fee of 1.5 % and a cash-out fee of R$ 0.50; every amount read back must be
// the amount written, to the centavo.
import createClient, { type Middleware } from "openapi-fetch";
import type { paths, components } from "./schema.js";

type Amount = components["schemas"]["Amount"];

const base = process.env.PIXGATE_URL ?? "";
const sandbox = process.env.PIXGATE_SANDBOX_URL ?? "";
const key = process.env.PIXGATE_KEY ?? "";
let accessToken = "";

function bearer(token: () => string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set("Authorization", `Bearer ${token()}`);
      return request;
    },
  };
}

const v1 = createClient<paths>({ baseUrl: base });
v1.use(bearer(() => key));
const v2 = createClient<paths>({ baseUrl: base });
v2.use(bearer(() => accessToken));

function fail(what: string): never {
  throw new Error(what);
}

// same checks an amount exactly: the double read must be the double of the
// decimal written, and print as it.
function same(what: string, got: Amount | undefined, want: number): void {
  if (got !== want || got.toFixed(2) !== want.toFixed(2)) fail(`${what} = ${got}, want exactly ${want.toFixed(2)}`);
}

function must<T>(what: string, r: { data?: T; error?: unknown; response: Response }, status: number): T {
  if (r.response.status !== status || r.data === undefined) {
    fail(`${what}: status ${r.response.status}, want ${status}: ${JSON.stringify(r.error)}`);
  }
  return r.data;
}

async function pay(pixId: string): Promise<void> {
  const r = await fetch(`${sandbox}/sandbox/charges/${pixId}/pay`, { method: "POST" });
  if (r.status !== 200) fail(`sandbox pay: ${r.status}`);
}

async function eventually(what: string, cond: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await cond())) {
    if (Date.now() > deadline) fail(`not within 20s: ${what}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

async function runV1(): Promise<void> {
  let bal = must("balance", await v1.GET("/api/v1/balance"), 200);
  same("available_balance", bal.available_balance, 197143.76);

  const charge = must("create charge", await v1.POST("/api/v1/charges", {
    body: { amount: 12345.67, external_id: "ts-client-charge", payer: { name: "Fulano de Tal", document: "52998224725" } },
  }), 201);
  same("amount", charge.amount, 12345.67);
  same("fee", charge.fee, 185.19);
  same("net_amount", charge.net_amount, 12160.48);
  await pay(charge.pix_id ?? fail("no pix_id"));
  await eventually("charge PAID", async () => {
    const got = must("get charge", await v1.GET("/api/v1/charges/{charge}", { params: { path: { charge: "ts-client-charge" } } }), 200);
    return got.status === "PAID";
  });
  const list = must("list charges", await v1.GET("/api/v1/charges", { params: { query: { per_page: 1, status: "PAID" } } }), 200);
  if (list.data.length !== 1 || list.data[0]?.id !== charge.id) fail(`list charges: ${JSON.stringify(list)}`);

  const w = must("create withdrawal", await v1.POST("/api/v1/withdrawals", {
    body: { amount: 1000.01, creditParty: { name: "Beltrano", keyType: "EMAIL", key: "beltrano@example.com", taxId: "52998224725" } },
  }), 201);
  same("withdrawal amount", w.amount, 1000.01);
  same("withdrawal total", w.total, 1000.51);
  bal = must("balance", await v1.GET("/api/v1/balance"), 200);
  same("available_balance after", bal.available_balance, 208303.73); // 197,143.76 + 12,160.48 − 1,000.51
}

async function consult(pixId: string) {
  return must(`consult ${pixId}`, await v2.POST("/v2/consult-transaction", { body: { pix_id: pixId } }), 200).requestBody;
}

async function runV2(): Promise<void> {
  const [publicId, secret] = key.split(".");
  const refused = await v2.POST("/v2/oauth/token", { body: { public_id: publicId, secret: "sk_wrong" } });
  const e = refused.error;
  if (refused.response.status !== 401 || !e || !("error" in e) || e.error !== "invalid_client" || !e.error_description) {
    fail(`token with a wrong secret: ${refused.response.status} ${JSON.stringify(refused.error)}`);
  }
  accessToken = must("token", await v2.POST("/v2/oauth/token", { body: { public_id: publicId, secret } }), 200).access_token;
  same("v2 available", must("balance", await v2.POST("/v2/balance"), 200).available, 208303.73);

  const noDocument = await v2.POST("/v2/pix/qrcode", { body: { amount: 15.5, payer: { name: "Fulano de Tal", document: "" } } });
  if (noDocument.response.status !== 422 || !noDocument.error?.errors?.["payer.document"] || !noDocument.error.message.startsWith("payer.document ")) {
    fail(`charge without a document: ${JSON.stringify(noDocument.error)}`);
  }
  const qr = must("qrcode", await v2.POST("/v2/pix/qrcode", {
    body: { amount: 15.5, payer: { name: "Fulano de Tal", document: "52998224725" } },
  }), 200);
  same("qrcode amount", qr.amount, 15.5);
  await pay(qr.transactionId);
  await eventually("charge PAID", async () => (await consult(qr.transactionId)).status === "PAID");

  const refund = must("refund", await v2.POST("/v2/pix/refund", { body: { pix_id: qr.transactionId, amount: 0.1 } }), 200);
  const tx = await consult(refund.transactionId);
  same("refund amount", tx.amount, 0.1);
  if (tx.pix_id !== qr.transactionId) fail(`refund pix_id = ${tx.pix_id}`);

  const payment = must("payment", await v2.POST("/v2/pix/payment", {
    body: { amount: 0.07, creditParty: { name: "Beltrano", keyType: "EVP", key: "123e4567-e12b-12d1-a456-426655440000", taxId: "11222333000181" } },
  }), 200);
  same("payment amount", (await consult(payment.transactionId)).amount, 0.07);
}

try {
  await runV1();
  await runV2();
  console.log("typescript client flow: ok");
} catch (e) {
  console.error("typescript client flow:", e instanceof Error ? e.message : e);
  process.exit(1);
}
