package protocol

import (
	"bytes"

	"github.com/vmihailenco/msgpack/v5"
)

// encodeRaw encodes without fixing the version.
func encodeRaw(m *Message) ([]byte, error) {
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	enc.SetCustomStructTag("json")
	err := enc.Encode(m)
	return buf.Bytes(), err
}
