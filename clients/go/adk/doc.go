// Package adk plugs mnemod into Google ADK-Go (google.golang.org/adk/v2):
// SessionService is a session.Service and MemoryService a memory.Service,
// both over a mnemo.Client, for runner.Config:
//
//	client, _ := mnemo.New("http://127.0.0.1:7420")
//	r, _ := runner.New(runner.Config{
//		AppName: "shop", Agent: agent,
//		SessionService: adk.NewSessionService(client),
//		MemoryService:  adk.NewMemoryService(client),
//	})
//
// An ADK app is a mnemod app and an ADK user a mnemod user. Each ADK event
// is one mnemod event holding the whole event as ADK encodes it (so it
// reads back whole), its text for mnemod's search and memory capture, its
// usage, and its state delta, which mnemod applies in the same transaction
// by ADK's own prefix rules: "app:" and "user:" keys go to the app's and the
// user's state, "temp:" keys are stored nowhere.
package adk
