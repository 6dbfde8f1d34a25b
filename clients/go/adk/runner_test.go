package adk_test

import (
	"context"
	"iter"
	"strings"
	"sync"
	"testing"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/runner"
	"google.golang.org/adk/v2/session"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/preloadmemorytool"
	"google.golang.org/genai"

	mnemo "github.com/mnemod/mnemod/clients/go"
	"github.com/mnemod/mnemod/clients/go/adk"
)

// scriptedModel answers each request with the next of its replies and
// keeps what it was asked, to show what the runner read from mnemod.
type scriptedModel struct {
	mu       sync.Mutex
	replies  []string
	requests []*model.LLMRequest
}

func (m *scriptedModel) Name() string { return "scripted" }

func (m *scriptedModel) GenerateContent(_ context.Context, req *model.LLMRequest,
	_ bool) iter.Seq2[*model.LLMResponse, error] {
	m.mu.Lock()
	defer m.mu.Unlock()
	reply := m.replies[len(m.requests)]
	m.requests = append(m.requests, req)
	return func(yield func(*model.LLMResponse, error) bool) {
		yield(&model.LLMResponse{Content: genai.NewContentFromText(reply, genai.RoleModel), TurnComplete: true,
			UsageMetadata: &genai.GenerateContentResponseUsageMetadata{PromptTokenCount: 10,
				CandidatesTokenCount: 5, TotalTokenCount: 15}}, nil)
	}
}

// asked is everything request i of the model held: its contents and its system instruction.
func (m *scriptedModel) asked(i int) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	req := m.requests[i]
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			b.WriteString(p.Text + "\n")
		}
	}
	if req.Config != nil && req.Config.SystemInstruction != nil {
		for _, p := range req.Config.SystemInstruction.Parts {
			b.WriteString(p.Text + "\n")
		}
	}
	return b.String()
}

// TestRunnerThreeTurns runs a real ADK-Go runner with a scripted model over
// three turns with both services: two turns of one session (the second sees
// the first from mnemod), then a turn of a new session that finds the first
// session's fact in memory.
func TestRunnerThreeTurns(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		llm := &scriptedModel{replies: []string{"Noted.", "Green tea.", "You like green tea."}}
		root, err := llmagent.New(llmagent.Config{Name: "helper", Model: llm, Instruction: "Answer briefly.",
			Tools: []tool.Tool{preloadmemorytool.New()}, OutputKey: "last_reply"})
		if err != nil {
			t.Fatal(err)
		}
		sessions, memories := adk.NewSessionService(c), adk.NewMemoryService(c)
		r, err := runner.New(runner.Config{AppName: "runner", Agent: root, SessionService: sessions,
			MemoryService: memories, AutoCreateSession: true})
		if err != nil {
			t.Fatal(err)
		}
		turn := func(sessionID, text string) string {
			t.Helper()
			var reply string
			for event, err := range r.Run(ctx, "u1", sessionID, genai.NewContentFromText(text, genai.RoleUser),
				agent.RunConfig{}) {
				if err != nil {
					t.Fatal(err)
				}
				if event.Content != nil && event.Author == "helper" {
					reply = event.Content.Parts[0].Text
				}
			}
			return reply
		}

		if reply := turn("first", "My favourite drink is green tea."); reply != "Noted." {
			t.Fatalf("turn 1 answered %q", reply)
		}
		if reply := turn("first", "What do I drink?"); reply != "Green tea." {
			t.Fatalf("turn 2 answered %q", reply)
		}
		if asked := llm.asked(1); !strings.Contains(asked, "My favourite drink is green tea.") ||
			!strings.Contains(asked, "Noted.") {
			t.Errorf("turn 2 did not see turn 1 from mnemod; the model was asked:\n%s", asked)
		}
		first, err := sessions.Get(ctx, &session.GetRequest{AppName: "runner", UserID: "u1", SessionID: "first"})
		if err != nil {
			t.Fatal(err)
		}
		if err := memories.AddSessionToMemory(ctx, first.Session); err != nil {
			t.Fatal(err)
		}

		if reply := turn("second", "Which drink do I like?"); reply != "You like green tea." {
			t.Fatalf("turn 3 answered %q", reply)
		}
		if asked := llm.asked(2); !strings.Contains(asked, "My favourite drink is green tea.") {
			t.Errorf("turn 3 did not recall the first session from memory; the model was asked:\n%s", asked)
		}
		stored, err := c.GetSession(ctx, "runner", "u1", "first", mnemo.GetSessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(stored.Events) != 4 || stored.Session.State["last_reply"] != "Green tea." ||
			stored.Session.Usage.TotalTokens != 30 {
			t.Errorf("mnemod holds %d events, state %v, usage %+v", len(stored.Events), stored.Session.State,
				stored.Session.Usage)
		}
	})
}
