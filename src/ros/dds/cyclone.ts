import type { IKoffiCType, IKoffiLib, KoffiFunction, TypeSpecWithAlignment } from "koffi";

/** What users see when --middleware dds is chosen and Cyclone DDS cannot be loaded. */
export const CYCLONE_UNAVAILABLE =
  "Cyclone DDS could not be loaded: install it with `apt-get install libddsc0debian` " +
  "(Debian/Ubuntu; add cyclonedds-dev cyclonedds-tools for idlc and ddsperf), or point DRONE_HARNESS_DDSC at libddsc.so";

/** The shared-object names tried in order (Debian's soname first; DRONE_HARNESS_DDSC overrides). */
export const LIBDDSC_NAMES = ["libddsc.so.0debian", "libddsc.so.0", "libddsc.so"] as const;

/**
 * The Cyclone DDS 0.10 C API subset this transport calls, bound with koffi (no compiled glue).
 * Entities are int32 handles (dds_entity_t); serdata and sertype are opaque pointers.
 */
export type CycloneApi = {
  readonly lib: IKoffiLib;
  readonly koffi: typeof import("koffi");
  readonly TopicDescriptor: IKoffiCType;
  create_domain: KoffiFunction;
  create_participant: KoffiFunction;
  create_topic: KoffiFunction;
  create_writer: KoffiFunction;
  create_reader: KoffiFunction;
  create_readcondition: KoffiFunction;
  create_guardcondition: KoffiFunction;
  set_guardcondition: KoffiFunction;
  create_waitset: KoffiFunction;
  waitset_attach: KoffiFunction;
  waitset_detach: KoffiFunction;
  waitset_wait: KoffiFunction;
  delete: KoffiFunction;
  write: KoffiFunction;
  writecdr: KoffiFunction;
  takecdr: KoffiFunction;
  serdata_from_ser_iov: KoffiFunction;
  serdata_size: KoffiFunction;
  serdata_to_ser: KoffiFunction;
  serdata_unref: KoffiFunction;
  create_qos: KoffiFunction;
  delete_qos: KoffiFunction;
  qset_reliability: KoffiFunction;
  qset_durability: KoffiFunction;
  qset_history: KoffiFunction;
  qset_ignorelocal: KoffiFunction;
  qset_partition1: KoffiFunction;
  qset_userdata: KoffiFunction;
  get_publication_matched_status: KoffiFunction;
  strretcode: KoffiFunction;
  read_mask: KoffiFunction;
  return_loan: KoffiFunction;
  set_qos: KoffiFunction;
  qget_userdata: KoffiFunction;
  free: KoffiFunction;
  get_guid: KoffiFunction;
  qget_reliability: KoffiFunction;
  qget_durability: KoffiFunction;
  qget_history: KoffiFunction;
  readonly BuiltinEndpoint: IKoffiCType;
  readonly BuiltinParticipant: IKoffiCType;
};

/** Pseudo handles of the builtin discovery topics (dds.h: DDS_MIN_PSEUDO_HANDLE + 1, 3, 4). */
export const BUILTIN_TOPIC = { participant: 0x7fff0001, publication: 0x7fff0003, subscription: 0x7fff0004 } as const;

let cached: CycloneApi | undefined;

/**
 * koffi.struct, or the type registered under that name already: koffi's type names live in the
 * native addon, which outlives this module when a test runner loads the module again.
 */
function namedStruct(koffi: typeof import("koffi"), name: string, def: Record<string, TypeSpecWithAlignment>): IKoffiCType {
  try {
    return koffi.struct(name, def);
  } catch (error) {
    if (!String((error as { message?: unknown }).message).includes("Duplicate type name")) throw error;
    return koffi.resolve(name);
  }
}

/** libddsc from DRONE_HARNESS_DDSC or the first of LIBDDSC_NAMES that loads; throws CYCLONE_UNAVAILABLE with every loader's reason. */
function loadLibddsc(koffi: typeof import("koffi")): IKoffiLib {
  const override = process.env["DRONE_HARNESS_DDSC"];
  const names = override !== undefined && override !== "" ? [override] : [...LIBDDSC_NAMES];
  let lib: IKoffiLib | undefined;
  const reasons: string[] = [];
  for (const name of names) {
    try {
      lib = koffi.load(name);
      break;
    } catch (error) {
      reasons.push(`${name}: ${(error as { message?: string }).message ?? String(error)}`);
    }
  }
  if (lib === undefined) throw new Error(`${CYCLONE_UNAVAILABLE} (tried ${reasons.join("; ")})`);
  return lib;
}

/** The C structs the API passes by pointer (dds_topic_descriptor_t, ddsrt_iovec_t, the builtin topics' samples). */
function declareStructs(koffi: typeof import("koffi")): Pick<CycloneApi, "TopicDescriptor" | "BuiltinEndpoint" | "BuiltinParticipant"> {
  const TopicDescriptor = namedStruct(koffi, "dds_topic_descriptor_t", {
    m_size: "uint32",
    m_align: "uint32",
    m_flagset: "uint32",
    m_nkeys: "uint32",
    m_typename: "const char *",
    m_keys: "void *",
    m_nops: "uint32",
    m_ops: "uint32 *",
    m_meta: "const char *",
    type_information_data: "void *",
    type_information_sz: "uint32",
    type_mapping_data: "void *",
    type_mapping_sz: "uint32",
    restrict_data_representation: "uint32",
  });
  namedStruct(koffi, "ddsrt_iovec_t", { iov_base: "void *", iov_len: "size_t" });
  namedStruct(koffi, "dds_publication_matched_status_t", {
    total_count: "uint32",
    total_count_change: "int32",
    current_count: "uint32",
    current_count_change: "int32",
    last_subscription_handle: "uint64",
  });
  const BuiltinEndpoint = namedStruct(koffi, "dds_builtintopic_endpoint_t", {
    key: koffi.array("uint8", 16),
    participant_key: koffi.array("uint8", 16),
    participant_instance_handle: "uint64",
    topic_name: "const char *",
    type_name: "const char *",
    qos: "void *",
  });
  const BuiltinParticipant = namedStruct(koffi, "dds_builtintopic_participant_t", { key: koffi.array("uint8", 16), qos: "void *" });
  return { TopicDescriptor, BuiltinEndpoint, BuiltinParticipant };
}

type CycloneFunctions = Omit<CycloneApi, "lib" | "koffi" | "TopicDescriptor" | "BuiltinEndpoint" | "BuiltinParticipant">;

/** The functions of the subset, declared with their C prototypes (the structs must be declared first). */
function bindFunctions(lib: IKoffiLib): CycloneFunctions {
  const f = (decl: string): KoffiFunction => lib.func(decl);
  return {
  create_domain: f("int32 dds_create_domain(uint32 domain, const char *config)"),
  create_participant: f("int32 dds_create_participant(uint32 domain, void *qos, void *listener)"),
  create_topic: f("int32 dds_create_topic(int32 pp, const dds_topic_descriptor_t *desc, const char *name, void *qos, void *listener)"),
  create_writer: f("int32 dds_create_writer(int32 pp, int32 topic, void *qos, void *listener)"),
  create_reader: f("int32 dds_create_reader(int32 pp, int32 topic, void *qos, void *listener)"),
  create_readcondition: f("int32 dds_create_readcondition(int32 reader, uint32 mask)"),
  create_guardcondition: f("int32 dds_create_guardcondition(int32 owner)"),
  set_guardcondition: f("int32 dds_set_guardcondition(int32 cond, bool triggered)"),
  create_waitset: f("int32 dds_create_waitset(int32 owner)"),
  waitset_attach: f("int32 dds_waitset_attach(int32 ws, int32 e, intptr_t x)"),
  waitset_detach: f("int32 dds_waitset_detach(int32 ws, int32 e)"),
  waitset_wait: f("int32 dds_waitset_wait(int32 ws, void *xs, size_t nxs, int64 reltimeout)"),
  delete: f("int32 dds_delete(int32 e)"),
  write: f("int32 dds_write(int32 writer, const void *data)"),
  writecdr: f("int32 dds_writecdr(int32 writer, void *serdata)"),
  takecdr: f("int32 dds_takecdr(int32 reader, _Out_ void **buf, uint32 maxs, _Out_ uint8_t *si, uint32 mask)"),
  serdata_from_ser_iov: f("void *ddsi_serdata_from_ser_iov(void *type, int kind, uint32 niov, const ddsrt_iovec_t *iov, size_t size)"),
  serdata_size: f("uint32 ddsi_serdata_size(void *d)"),
  serdata_to_ser: f("void ddsi_serdata_to_ser(void *d, size_t off, size_t sz, _Out_ uint8_t *buf)"),
  serdata_unref: f("void ddsi_serdata_unref(void *d)"),
  create_qos: f("void *dds_create_qos()"),
  delete_qos: f("void dds_delete_qos(void *qos)"),
  qset_reliability: f("void dds_qset_reliability(void *qos, int kind, int64 max_blocking_time)"),
  qset_durability: f("void dds_qset_durability(void *qos, int kind)"),
  qset_history: f("void dds_qset_history(void *qos, int kind, int32 depth)"),
  qset_ignorelocal: f("void dds_qset_ignorelocal(void *qos, int ignore)"),
  qset_partition1: f("void dds_qset_partition1(void *qos, const char *name)"),
  qset_userdata: f("void dds_qset_userdata(void *qos, const void *value, size_t sz)"),
  get_publication_matched_status: f("int32 dds_get_publication_matched_status(int32 writer, _Out_ dds_publication_matched_status_t *status)"),
  strretcode: f("const char *dds_strretcode(int32 ret)"),
  read_mask: f("int32 dds_read_mask(int32 reader, _Inout_ void **buf, _Out_ uint8_t *si, size_t bufsz, uint32 maxs, uint32 mask)"),
  return_loan: f("int32 dds_return_loan(int32 reader, void **buf, int32 bufsz)"),
  set_qos: f("int32 dds_set_qos(int32 e, void *qos)"),
  qget_userdata: f("bool dds_qget_userdata(void *qos, _Out_ void **value, _Out_ size_t *sz)"),
  free: f("void dds_free(void *p)"),
  get_guid: f("int32 dds_get_guid(int32 e, _Out_ uint8_t *guid)"),
  qget_reliability: f("bool dds_qget_reliability(void *qos, _Out_ int *kind, _Out_ int64 *max_blocking_time)"),
  qget_durability: f("bool dds_qget_durability(void *qos, _Out_ int *kind)"),
  qget_history: f("bool dds_qget_history(void *qos, _Out_ int *kind, _Out_ int32 *depth)"),
  };
}

/**
 * Loads koffi and libddsc, once per process. Throws CYCLONE_UNAVAILABLE with the loader's reason
 * when the library is missing, so the embedded default never touches either.
 */
export function loadCyclone(): CycloneApi {
  if (cached !== undefined) return cached;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const koffi = require("koffi") as typeof import("koffi");
  const lib = loadLibddsc(koffi);
  const { TopicDescriptor, BuiltinEndpoint, BuiltinParticipant } = declareStructs(koffi);
  cached = { lib, koffi, TopicDescriptor, ...bindFunctions(lib), BuiltinEndpoint, BuiltinParticipant };
  return cached;
}

/** Throws "what: DDS_RETCODE_... (n)" for a negative dds_return_t / dds_entity_t. */
export function check(api: CycloneApi, ret: number, what: string): number {
  if (ret < 0) throw new Error(`${what} failed: ${String(api.strretcode(ret))} (${ret})`);
  return ret;
}
