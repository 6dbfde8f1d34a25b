// An OpenAI-compatible embeddings server whose vectors come from a table the
// test writes, so a recall's similarities (and so its order) are known
// before it runs. mnemod's `memory.embedder: {kind: http}` is pointed at it.
// A text missing from the table is a 400 naming it: a test that forgot one
// fails loudly instead of ranking by an invented vector.
import { createServer } from 'node:http';

// table: {text: [numbers]}; resolves to {url, texts (every text asked for), close()}.
export async function startTableEmbedder(table) {
  const texts = [];
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status, body) => {
        response.writeHead(status, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.method !== 'POST' || !request.url.endsWith('/embeddings')) {
        return answer(404, { error: { message: `no route ${request.method} ${request.url}` } });
      }
      const { model, input } = JSON.parse(Buffer.concat(chunks).toString());
      const inputs = typeof input === 'string' ? [input] : input;
      texts.push(...inputs);
      const missing = inputs.find((text) => !(text in table));
      if (missing !== undefined) return answer(400, { error: { message: `no vector for "${missing}"` } });
      return answer(200, {
        object: 'list',
        model,
        data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: table[text] })),
      });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    texts,
    close: () => {
      server.closeAllConnections();  // mnemod keeps its connection alive
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
