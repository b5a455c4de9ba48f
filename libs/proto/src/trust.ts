// The trust service's contracts come from two proto files; this barrel merges
// them into one namespace.
export * from './gen/hearth/trust/v1/events.js';
export * from './gen/hearth/trust/v1/queries.js';
// ts-proto emits these helpers in every file; name the copy that wins so the two
// star exports are not ambiguous. (`protobufFileName` is therefore events.proto's.)
export {
  protobufPackage,
  protobufFileName,
  type DeepPartial,
  type MessageFns,
} from './gen/hearth/trust/v1/events.js';
