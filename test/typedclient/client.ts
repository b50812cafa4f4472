// A client of the /v1 API as a TypeScript consumer would write it: types
// generated from the served OpenAPI document by openapi-typescript
// (openapi.d.ts, written next to this file by the test), used through
// openapi-fetch with its default options. It must type-check: every list
// operation's data is its JSON list type, not a union with a stream.
import createClient from "openapi-fetch";
import type { paths } from "./openapi";

const client = createClient<paths>({ baseUrl: "https://invoicing.example" });
const headers = { "Invoicing-Workspace": "demo" };

export async function firstObjects(): Promise<string[]> {
  const invoices = await client.GET("/v1/invoices", {
    params: { header: headers, query: { status: "issued", order: "sequence" } },
  });
  const events = await client.GET("/v1/events", {
    params: { header: headers, query: { after: 0, type: "invoice.paid" } },
  });
  const customers = await client.GET("/v1/customers", { params: { header: headers } });
  const invoice: "invoice" | undefined = invoices.data?.data[0].object;
  const event: "event" | undefined = events.data?.data[0].object;
  const sequence: number | undefined = events.data?.data[0].sequence;
  return [String(invoice), String(event), String(sequence), String(customers.data?.data[0].object)];
}

export async function closedBooks(): Promise<string[]> {
  const closes = await client.GET("/v1/period_closes", { params: { header: headers } });
  const created = await client.POST("/v1/period_closes", {
    params: { header: headers },
    body: { through: "2026-10" },
  });
  const seals = await client.GET("/v1/seals", { params: { header: headers } });
  const verdict = await client.GET("/v1/seals/verify", { params: { header: headers } });
  const closedThrough: string | null | undefined = closes.data?.closed_through;
  const status: "pending" | "closed" | "superseded" | "invalid" | undefined = created.data?.status;
  const head: string | undefined = verdict.data?.head;
  const sequence: number | undefined = seals.data?.data[0].sequence;
  return [String(closedThrough), String(status), String(head), String(sequence)];
}
