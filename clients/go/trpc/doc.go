// Package trpc plugs mnemod into tRPC-Agent-Go
// (trpc.group/trpc-go/trpc-agent-go): SessionService is its session.Service
// (with TrackService and SearchableService) and MemoryService its
// memory.Service, both over a mnemo.Client:
//
//	client, _ := mnemo.New("http://127.0.0.1:7420")
//	memories := trpc.NewMemoryService(client)
//	agent := llmagent.New("helper", llmagent.WithModel(m), llmagent.WithTools(memories.Tools()))
//	r := runner.NewRunner("shop", agent,
//		runner.WithSessionService(trpc.NewSessionService(client)), runner.WithMemoryService(memories))
//
// A tRPC app is a mnemod app and a tRPC user a mnemod user. Each stored tRPC
// event is one mnemod event holding the whole event as tRPC encodes it (so
// it reads back whole), its text for mnemod's search, summaries and memory
// capture, its usage and its filter key, which mnemod's summaries read by
// the same prefix rule as tRPC ("" covers everything, "a" covers "a/b").
//
// tRPC state values are bytes; mnemod's are JSON. A value is stored as a
// JSON string of its bytes when they are UTF-8 (so other clients read the
// text), else as {"base64": "..."}; both read back byte for byte.
package trpc
