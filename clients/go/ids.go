package mnemo

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// NewID returns a UUIDv7 (time ordered, as the daemon's own ids): the
// client id AppendEvents gives an event without one, and a session id a
// client can choose before creating the session, so that a retried create
// is recognised.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	ms := uint64(time.Now().UnixMilli())
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	b[6] = 0x70 | b[6]&0x0f
	b[8] = 0x80 | b[8]&0x3f
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
