// rate-limiter-flexible's classes by their own files. Its index loads every store it supports (Mongo, MySQL,
// DynamoDB, etcd, …: ~25 ms of a server start); these files are what the index re-exports, so the classes (and
// `instanceof RateLimiterRes`) are the same. The package declares types for its index only.
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  export { RateLimiterMemory as default } from 'rate-limiter-flexible';
}
declare module 'rate-limiter-flexible/lib/RateLimiterRedis.js' {
  export { RateLimiterRedis as default } from 'rate-limiter-flexible';
}
declare module 'rate-limiter-flexible/lib/RateLimiterRes.js' {
  export { RateLimiterRes as default } from 'rate-limiter-flexible';
}
