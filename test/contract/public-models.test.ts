/**
 * Every public model of the service's public-endpoint pages in `x-model-endpoints`: its endpoint
 * id (the page's request URL, not its file name), its kind, an input whose example validates and
 * whose limits hold, a price; and every shape of answer the pages document fits `Job`'s output.
 * The example answers below are this project's own values, shaped as the pages show them.
 */
import { describe, expect, it } from "vitest";
import { contractValidator, loadContractDocument } from "../support/contract.ts";

const document = loadContractDocument();
const schemaAt = contractValidator(document);
const models = document["x-model-endpoints"];

/** Endpoint id → kind, from each page's request URL and type (`public-endpoints/models/*.mdx`). */
const PAGES: Record<string, string> = {
  "black-forest-labs-flux-1-dev": "image",
  "black-forest-labs-flux-1-schnell": "image",
  "black-forest-labs-flux-1-kontext-dev": "image",
  "p-image-t2i": "image",
  "p-image-edit": "image",
  "qwen-image-t2i": "image",
  "qwen-image-t2i-lora": "image",
  "qwen-image-edit": "image",
  "qwen-image-edit-2511": "image",
  "qwen-image-edit-2511-lora": "image",
  "seedream-v4-t2i": "image",
  "seedream-v4-edit": "image",
  "wan-2-6-t2i": "image",
  "z-image-turbo": "image",
  "nano-banana-edit": "image",
  "nano-banana-pro-edit": "image",
  "google-nano-banana-2-edit": "image",
  infinitetalk: "video",
  "kling-v2-1-i2v-pro": "video",
  "kling-v2-6-std-motion-control": "video",
  "kling-video-o1-r2v": "video",
  "seedance-v1-5-pro-i2v": "video",
  "sora-2-i2v": "video",
  "sora-2-pro-i2v": "video",
  "wan-2-6-t2v": "video",
  "wan-2-5": "video",
  "wan-2-2-t2v-720-lora": "video",
  "wan-2-2-i2v-720": "video",
  "wan-2-1-i2v-720": "video",
  "wan-2-6-i2v": "video",
  "p-video": "video",
  "vidu-q3-i2v": "video",
  "vidu-q3-t2v": "video",
  "granite-4-0-h-small": "text",
  "moonshot-kimi": "text",
  "qwen3-32b-awq": "text",
  "gpt-oss-120b": "text",
  "cogito-671b-v2-1-fp8-dynamic": "text",
  "chatterbox-turbo": "audio",
  "minimax-speech-02-hd": "audio",
};

const inputOf = (id: string) => schemaAt(models[id].input.$ref);
const outputOf = (id: string) => schemaAt(models[id].output.$ref);
const job = schemaAt("#/components/schemas/Job");
const syncJob = schemaAt("#/components/schemas/SyncJob");

describe("every public model", () => {
  it("is listed once under its endpoint id, with its page's kind: 17 image, 16 video, 5 text, 2 audio", () => {
    expect(Object.keys(models).sort()).toEqual(Object.keys(PAGES).sort());
    for (const [id, kind] of Object.entries(PAGES)) expect(models[id].kind, id).toBe(kind);
    const count = (kind: string) => Object.values(PAGES).filter((k) => k === kind).length;
    expect([count("image"), count("video"), count("text"), count("audio")]).toEqual([17, 16, 5, 2]);
  });

  it.each(Object.keys(PAGES))("%s: its example input validates, alone and as a run request, and it has a price", (id) => {
    const schema = document.components.schemas[models[id].input.$ref.split("/").pop()];
    expect(schema.examples?.length, id).toBeGreaterThan(0);
    const validate = inputOf(id);
    for (const example of schema.examples) {
      expect(validate(example), `${id}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(schemaAt("#/components/schemas/RunRequest")({ input: example })).toBe(true);
    }
    expect(models[id].pricing.currency).toBe("USD");
  });

  it("refuses what a page rules out: unknown parameters, too many images, a LoRA without scale, a role or a range outside the page's", () => {
    const refused: Array<[string, unknown]> = [
      ["black-forest-labs-flux-1-schnell", { prompt: "p", num_inference_steps: 9 }],
      ["black-forest-labs-flux-1-schnell", { prompt: "p", width: 1000 }],
      ["qwen-image-t2i", { prompt: "p", steps: 4 }],
      ["nano-banana-edit", { prompt: "p", images: ["a", "b", "c", "d", "e"].map((n) => `https://images.example.org/${n}.png`) }],
      ["qwen-image-edit-2511", { prompt: "p", images: [] }],
      ["qwen-image-t2i-lora", { prompt: "p", loras: [{ path: "https://weights.example.org/x.safetensors" }] }],
      ["granite-4-0-h-small", { messages: [{ role: "tool", content: "x" }] }],
      ["granite-4-0-h-small", { messages: [{ role: "user", content: "x" }], sampling_params: { temperature: 1.5 } }],
      ["moonshot-kimi", { messages: [{ role: "user", content: "x" }], model: "kimi-k1" }],
      ["sora-2-i2v", { prompt: "p", image: "https://images.example.org/a.png", duration: 6 }],
      ["kling-video-o1-r2v", { prompt: "p", images: ["https://images.example.org/a.png"], duration: 11 }],
      ["vidu-q3-t2v", { prompt: "p", duration: 17 }],
      ["chatterbox-turbo", { prompt: "p", voice: "robot" }],
      ["p-video", { prompt: "p", fps: 30 }],
      ["infinitetalk", { prompt: "p", image: "https://images.example.org/a.png", audio: "https://audio.example.org/a.mp3" }],
    ];
    for (const [id, input] of refused) expect(inputOf(id)(input), `${id} ${JSON.stringify(input)}`).toBe(false);
    // Open where the page is not exhaustive: an emotion the page does not list.
    expect(inputOf("minimax-speech-02-hd")({ prompt: "p", emotion: "calm" })).toBe(true);
  });
});

describe("every documented answer fits Job's output", () => {
  const completed = (output: unknown, extra: object = {}) => ({ id: "sync-0b1c2d3e-u1", status: "COMPLETED", delayTime: 9, executionTime: 1200, output, ...extra });
  const answers: Array<[string, string | undefined, unknown]> = [
    ["an image URL and its cost", "qwen-image-t2i", { image_url: "https://files.example-gpu.cloud/a1.png", cost: 0.02 }],
    ["a video URL and its cost", "sora-2-i2v", { video_url: "https://files.example-gpu.cloud/v1.mp4", cost: 0.8 }],
    ["an audio URL and its cost", "minimax-speech-02-hd", { audio_url: "https://files.example-gpu.cloud/s1.mp3", cost: 0.0021 }],
    ["an audio URL without cost (Chatterbox)", "chatterbox-turbo", { audio_url: "https://files.example-gpu.cloud/s2.wav" }],
    ["a chat model's choices, cost and usage", "moonshot-kimi", { choices: [{ tokens: ["Bytes become ", "meaning."] }], cost: 0.00081, usage: { input: 18, output: 196 } }],
    ["a prompt model's list of them", "cogito-671b-v2-1-fp8-dynamic", [{ choices: [{ tokens: ["Three uses: ..."] }], cost: 0.0003, usage: { input: 11, output: 589 } }]],
    ["a worker's text and token counts (generic reference)", undefined, { text: ["Hi there, how can I help?"], input_tokens: 7, output_tokens: 8 }],
    ["a worker's list of images (generic reference)", undefined, [{ image: "https://files.example-gpu.cloud/g1.png", seed: 1234 }, { image: "https://files.example-gpu.cloud/g2.png", seed: 1235 }]],
  ];

  it.each(answers)("%s", (_, model, output) => {
    for (const validate of [job, syncJob]) expect(validate(completed(output)), JSON.stringify(validate.errors)).toBe(true);
    if (model) expect(outputOf(model)(output), JSON.stringify(outputOf(model).errors)).toBe(true);
  });

  it("shows the text and speech answers among the job operations' examples, each valid", () => {
    const examplesOf = (path: string, method: string) => document.paths[path][method].responses["200"].content["application/json"].examples;
    const status = examplesOf("/v2/{model_endpoint_id}/status/{job_id}", "get");
    const sync = examplesOf("/v2/{model_endpoint_id}/runsync", "post");
    for (const name of ["completedSpeechWithoutCost", "completedChat", "completedPromptText"]) expect(job(status[name].value), name).toBe(true);
    expect(syncJob(sync.completedChat.value)).toBe(true);
    expect(Array.isArray(status.completedPromptText.value.output)).toBe(true);
    expect(status.completedSpeechWithoutCost.value.output).not.toHaveProperty("cost");
  });

  it("still refuses an output that is none of them", () => {
    for (const output of [{ cost: 0.1 }, [{ cost: 0.1 }], "a bare string", { choices: [{ tokens: [7] }], cost: 0.1, usage: { input: 1, output: 1 } }]) {
      expect(job(completed(output)), JSON.stringify(output)).toBe(false);
    }
    // A text model's answer is no speech answer, and the reverse.
    expect(outputOf("chatterbox-turbo")({ choices: [] })).toBe(false);
    expect(outputOf("granite-4-0-h-small")({ audio_url: "https://files.example-gpu.cloud/s.wav" })).toBe(false);
  });
});
