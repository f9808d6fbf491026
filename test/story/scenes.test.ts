import { describe, expect, it } from "vitest";
import { Timeline } from "../../packages/local/src/drills/timeline";
import { STORY_SCENES } from "../../packages/local/src/story/story-branches";
import { playScene } from "../../packages/local/src/story/story-scenes";
import { useLocalStack } from "../support/local-stack";

// The worker's redelivery (branch R) comes after the visibility timeout: short, as in `npm run story`.
process.env.EVENTS_VISIBILITY_TIMEOUT_S = "2";
const stack = useLocalStack();

describe("the story's scenes (npm run story -- --branch 3a|3b|3c|3d|R|V|M), on the real local stack", () => {
  for (const [name, scene] of Object.entries(STORY_SCENES)) {
    it(`${name}: ${scene.outcome}; without its guard, ${scene.failure}`, async () => {
      // act: the scene with its guard, then with its switch
      const { guarded, unguarded } = await playScene(stack(), scene, new Timeline());
      // assess
      expect(guarded, guarded.said).toMatchObject({ held: true });
      expect(unguarded, unguarded.said).toMatchObject({ held: false });
      for (const name of Object.keys(scene.env)) expect(process.env[name]).toBeUndefined();
    }, 60_000);
  }
});
