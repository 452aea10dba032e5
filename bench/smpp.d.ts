// The `smpp` package ships no types; the adapter and the simulator declare the shapes they use.
declare module 'smpp' {
  const smpp: {
    connect(o: object, cb?: () => void): unknown;
    createServer(o: object, cb?: (s: unknown) => void): unknown;
    [k: string]: unknown;
  };
  export default smpp;
}
