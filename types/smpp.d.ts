// The `smpp` package ships no types; one declaration for the adapter, the simulator and the benchmarks.
declare module 'smpp' {
  const smpp: {
    connect(o: object, cb?: () => void): unknown;
    createServer(o: object, cb?: (s: unknown) => void): unknown;
    [k: string]: unknown;
  };
  export default smpp;
}
