// The wire protocol version this build speaks (WireHeader.protocol_version,
// proto/wire_header.proto). A receiver refuses every message whose header
// carries another version with FailedPrecondition ("protocol version X, this
// daemon speaks 1"). Bump it on any change that an older daemon would
// misread; the two sides of a consortium must then be upgraded together.
#ifndef PPLDA_NET_PROTOCOL_VERSION_H_
#define PPLDA_NET_PROTOCOL_VERSION_H_

#include <cstdint>

namespace pplda::net {

inline constexpr uint32_t kProtocolVersion = 1;

}  // namespace pplda::net

#endif  // PPLDA_NET_PROTOCOL_VERSION_H_
