/**
 * Redirects of a call that is not idempotent: a POST never sent twice, 307 and 308 followed with
 * the same method and body, the key dropped on another origin, loops bounded.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  ConnectionError,
} from "../../generated/gpu-cloud-client/src/index.ts";
import { json, useScriptedServer } from "../support/scripted-server.ts";
import { KEY, video, clientOn } from "./resilience-client.ts";

const server = useScriptedServer();
const client = clientOn(server);

describe("redirects of a call that is not idempotent", () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });
  const listen = async (handler: http.RequestListener) => {
    const s = http.createServer(handler);
    servers.push(s);
    await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };
  const closedPort = async () => {
    const s = http.createServer();
    await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => s.close(() => resolve()));
    return url;
  };

  it.each([307, 308])("never resends a POST answered %i towards an address that refuses the connection", async (status) => {
    const refused = await closedPort();
    server.replies = [(_, res) => { res.writeHead(status, { location: `${refused}/v2/wan-2-6-i2v/run` }); res.end(); }];
    const error = await client().runModel("wan-2-6-i2v", video).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.cause.code).toBe("ECONNREFUSED");
    expect(server.received.map((r) => r.method)).toEqual(["POST"]);
  });

  it("follows 307 and 308 with the same method and body, 303 (and 301, 302 of a POST) with a GET", async () => {
    const landed: Array<{ method: string; url: string; body: string; type?: string }> = [];
    const target = await listen((req, res) => {
      let body = "";
      req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        landed.push({ method: req.method!, url: req.url!, body, type: req.headers["content-type"] });
        json(res, 200, { id: "job-2", status: "IN_QUEUE" });
      });
    });
    for (const status of [307, 308, 303, 301, 302]) {
      server.replies = [(_, res) => { res.writeHead(status, { location: `${target}/landing/${status}` }); res.end(); }];
      const { data } = await client().runModel("wan-2-6-i2v", video);
      expect(data.id).toBe("job-2");
    }
    const sent = JSON.stringify({ input: video });
    expect(landed).toEqual([
      { method: "POST", url: "/landing/307", body: sent, type: "application/json" },
      { method: "POST", url: "/landing/308", body: sent, type: "application/json" },
      { method: "GET", url: "/landing/303", body: "" },
      { method: "GET", url: "/landing/301", body: "" },
      { method: "GET", url: "/landing/302", body: "" },
    ]);
    expect(server.received).toHaveLength(5);
  });

  it("drops the key on a redirect to another origin, keeps it on the same one", async () => {
    const elsewhere: Array<string | undefined> = [];
    const port = new URL(await listen((req, res) => {
      elsewhere.push(req.headers.authorization);
      json(res, 200, { id: "job-3", status: "IN_QUEUE" });
    })).port;
    // Another port is another origin.
    server.replies = [(_, res) => { res.writeHead(307, { location: `http://127.0.0.1:${port}/landing` }); res.end(); }];
    await client().runModel("wan-2-6-i2v", video);
    expect(elsewhere).toEqual([undefined]);
    server.replies = [(_, res) => { res.writeHead(307, { location: "/landing" }); res.end(); }, (_, res) => json(res, 200, { id: "job-4", status: "IN_QUEUE" })];
    const { data } = await client().runModel("wan-2-6-i2v", video);
    expect(data.id).toBe("job-4");
    expect(server.received.map((r) => [r.url, r.authorization])).toEqual([
      ["/v2/wan-2-6-i2v/run", `Bearer ${KEY}`],
      ["/v2/wan-2-6-i2v/run", `Bearer ${KEY}`],
      ["/landing", `Bearer ${KEY}`],
    ]);
  });

  it("stops after 20 redirects with a ConnectionError, sending the POST once", async () => {
    let hops = 0;
    const loop = await listen((_, res) => {
      hops++;
      res.writeHead(307, { location: "/again" });
      res.end();
    });
    server.replies = [(_, res) => { res.writeHead(307, { location: `${loop}/again` }); res.end(); }];
    const error = await client().runModel("wan-2-6-i2v", video).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.received).toHaveLength(1);
    expect(hops).toBe(20);
  });
});
