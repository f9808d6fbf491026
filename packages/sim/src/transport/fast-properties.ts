const made = new WeakSet<object>();

/**
 * Asks V8 to keep an object's properties in fast mode (the shape it gives object literals) when it holds them in a
 * hash table: the SDK's resolved client config is such an object (built up by many `Object.assign`s), and its
 * middleware spread it into a new object several times per request, ten times slower from a hash table. An object
 * used as a prototype is made fast by the first property lookup that goes through it (V8's "make prototypes fast"),
 * so this makes it the prototype of a throwaway object and looks a property up through that from a fresh function
 * (its own inline cache, so the lookup is never served from a cache). Nothing a program can observe changes: the
 * same object, its properties in the same order. Once per object.
 */
export function makeFastProperties(o: object): void {
  if (made.has(o)) return;
  made.add(o);
  function Receiver(): void {}
  Receiver.prototype = o;
  const receiver = new (Receiver as unknown as new () => object)();
  const lookUp = new Function("o", "return typeof o.__simFastProperties;") as (o: object) => string;
  for (let i = 0; i < 16; i++) lookUp(receiver);
}
