package trpc_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"trpc.group/trpc-go/trpc-agent-go/agent/llmagent"
	"trpc.group/trpc-go/trpc-agent-go/memory"
	"trpc.group/trpc-go/trpc-agent-go/model"
	"trpc.group/trpc-go/trpc-agent-go/runner"
	"trpc.group/trpc-go/trpc-agent-go/session"

	"github.com/mnemod/mnemod/clients/go/internal/daemontest"
	"github.com/mnemod/mnemod/clients/go/trpc"
)

// step is one answer of the scripted model: a tool call or a reply, and
// what the request it answers must hold.
type step struct {
	tool, args, reply string
	expect            string
}

// scriptedModel answers with its steps in order and checks each request.
type scriptedModel struct {
	t     *testing.T
	mu    sync.Mutex
	steps []step
}

func (m *scriptedModel) Info() model.Info { return model.Info{Name: "scripted"} }

func (m *scriptedModel) GenerateContent(_ context.Context, req *model.Request) (<-chan *model.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.steps) == 0 {
		m.t.Error("the model was asked more than its script holds")
		return nil, context.Canceled
	}
	s := m.steps[0]
	m.steps = m.steps[1:]
	var asked strings.Builder
	for _, msg := range req.Messages {
		asked.WriteString(string(msg.Role) + ": " + msg.Content + "\n")
	}
	if !strings.Contains(asked.String(), s.expect) {
		m.t.Errorf("the model was asked without %q:\n%s", s.expect, asked.String())
	}
	msg := model.Message{Role: model.RoleAssistant, Content: s.reply}
	if s.tool != "" {
		msg.ToolCalls = []model.ToolCall{{Type: "function", ID: "call-" + s.tool,
			Function: model.FunctionDefinitionParam{Name: s.tool, Arguments: []byte(s.args)}}}
	}
	out := make(chan *model.Response, 1)
	out <- &model.Response{Object: model.ObjectTypeChatCompletion, Done: true, Choices: []model.Choice{{Message: msg}},
		Usage: &model.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}}
	close(out)
	return out, nil
}

// TestRunnerThreeTurns runs a real tRPC-Agent-Go runner with a scripted
// model over three turns with both services: the first turn files a
// memory through tRPC's memory tool, the second (same session) sees the
// first from mnemod and searches the memory, the third (a new session)
// loads it.
func TestRunnerThreeTurns(t *testing.T) {
	for _, backend := range daemontest.Backends {
		t.Run(backend, func(t *testing.T) {
			ctx := t.Context()
			c := client(t, backend)
			sessions, memories := trpc.NewSessionService(c), trpc.NewMemoryService(c)
			llm := &scriptedModel{t: t, steps: []step{
				{tool: memory.AddToolName, args: `{"memory":"Favourite drink is green tea","topics":["drink"]}`,
					expect: "user: My favourite drink is green tea"},
				{reply: "Noted.", expect: "Memory added successfully"},
				{tool: memory.SearchToolName, args: `{"query":"favourite drink"}`,
					expect: "user: My favourite drink is green tea"},
				{reply: "Green tea.", expect: "Favourite drink is green tea"},
				{tool: memory.LoadToolName, args: `{"limit":5}`, expect: "user: What do I drink?"},
				{reply: "You drink green tea.", expect: "Favourite drink is green tea"},
			}}
			agent := llmagent.New("helper", llmagent.WithModel(llm), llmagent.WithInstruction("Answer briefly."),
				llmagent.WithTools(memories.Tools()))
			app := appName()
			r := runner.NewRunner(app, agent, runner.WithSessionService(sessions), runner.WithMemoryService(memories))
			defer r.Close()
			turn := func(sessionID, text string) string {
				t.Helper()
				events, err := r.Run(ctx, "u1", sessionID, model.NewUserMessage(text))
				if err != nil {
					t.Fatal(err)
				}
				var reply string
				for e := range events {
					if e.Error != nil {
						t.Fatalf("turn %q: %s", text, e.Error.Message)
					}
					if e.Response != nil && e.Author == "helper" && len(e.Choices) > 0 && e.Choices[0].Message.Content != "" {
						reply = e.Choices[0].Message.Content
					}
				}
				return reply
			}
			for _, c := range []struct{ session, ask, want string }{
				{"first", "My favourite drink is green tea", "Noted."},
				{"first", "What is my favourite drink?", "Green tea."},
				{"second", "What do I drink?", "You drink green tea."},
			} {
				if got := turn(c.session, c.ask); got != c.want {
					t.Fatalf("%q answered %q, want %q", c.ask, got, c.want)
				}
			}
			if len(llm.steps) != 0 {
				t.Errorf("%d steps of the script were never asked for", len(llm.steps))
			}
			first, err := sessions.GetSession(ctx, session.Key{AppName: app, UserID: "u1", SessionID: "first"})
			if err != nil || first == nil {
				t.Fatal(err)
			}
			// Each of the two turns: the user's message, a tool call, its result and the reply.
			if len(first.Events) != 8 {
				var kinds []string
				for _, e := range first.Events {
					b, _ := json.Marshal(e.Choices)
					kinds = append(kinds, string(b))
				}
				t.Errorf("the first session holds %d events:\n%s", len(first.Events), strings.Join(kinds, "\n"))
			}
			stored, err := c.ListMemories(ctx, app, "u1", mnemoListAll)
			if err != nil || len(stored.Memories) != 1 || stored.Memories[0].Text != "Favourite drink is green tea" {
				t.Errorf("mnemod holds the memories %+v, %v", stored, err)
			}
		})
	}
}
