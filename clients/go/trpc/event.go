package trpc

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"trpc.group/trpc-go/trpc-agent-go/event"
	"trpc.group/trpc-go/trpc-agent-go/model"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// content is a mnemod event's content as this package writes it: the whole
// tRPC event as tRPC encodes it, and its text for mnemod's search, memory
// capture and summaries.
type content struct {
	TRPC json.RawMessage `json:"trpc"`
	Text string          `json:"text,omitempty"`
}

// toMnemo is the mnemod event that stores e.
func toMnemo(e *event.Event) (mnemo.NewEvent, error) {
	whole, err := json.Marshal(e)
	if err != nil {
		return mnemo.NewEvent{}, fmt.Errorf("trpc: event %s does not encode as JSON: %w", e.ID, err)
	}
	role := mnemo.RoleAssistant
	if e.IsUserMessage() {
		role = mnemo.RoleUser
	} else if e.IsToolResultResponse() {
		role = mnemo.RoleTool
	}
	stored := mnemo.NewEvent{
		ID:           e.ID,
		InvocationID: e.InvocationID,
		// mnemod needs an author; tRPC's stays as it was inside the stored event.
		Author:     cmp.Or(e.Author, "trpc"),
		Role:       role,
		Content:    content{TRPC: whole, Text: textOf(e.Response)},
		StateDelta: deltaOf(e.StateDelta, ""),
		FilterKey:  e.FilterKey,
		Timestamp:  e.Timestamp,
	}
	if u := e.Usage; u != nil {
		stored.Usage = &mnemo.Usage{InputTokens: int64(u.PromptTokens), OutputTokens: int64(u.CompletionTokens),
			TotalTokens: int64(u.TotalTokens)}
	}
	return stored, nil
}

// eventFrom is the tRPC event a mnemod event stores: as written when this
// package wrote it, else (another client's event) a message event.
func eventFrom(e *mnemo.Event) (*event.Event, error) {
	var c content
	if json.Unmarshal(e.Content, &c) == nil && len(c.TRPC) > 0 {
		var stored event.Event
		if err := json.Unmarshal(c.TRPC, &stored); err != nil {
			return nil, fmt.Errorf("event %s holds a tRPC event that does not decode: %w", e.ID, err)
		}
		return &stored, nil
	}
	role := model.RoleAssistant
	if e.Role == mnemo.RoleUser {
		role = model.RoleUser
	}
	return &event.Event{ID: e.ID, InvocationID: e.InvocationID, Author: e.Author, Timestamp: e.Timestamp,
		FilterKey: e.FilterKey, Response: &model.Response{Object: model.ObjectTypeChatCompletion, Done: true,
			Choices: []model.Choice{{Message: model.Message{Role: role, Content: e.Text()}}}}}, nil
}

// textOf is the text of a response's messages.
func textOf(r *model.Response) string {
	if r == nil {
		return ""
	}
	var texts []string
	for _, choice := range r.Choices {
		if choice.Message.Content != "" {
			texts = append(texts, choice.Message.Content)
		}
	}
	return strings.Join(texts, "\n")
}
