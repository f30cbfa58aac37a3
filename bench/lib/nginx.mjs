// nginx serving saved response bodies with the headers the app sent, for the benchmarks that
// compare the app with a static file server (guest-pages/, bio-page/).
import fs from "node:fs";
import path from "node:path";
import { freePort, startProgram } from "./app-server.mjs";

const quoted = (value) => `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;

/**
 * One worker (the app is one Node process), no access log (the app logs no cache hit), no
 * ETag or Last-Modified (the app sends neither). Each page is its saved file, sent with the
 * app's own headers: Content-Type through default_type, the rest through add_header.
 */
export function nginxConfig(dir, port, pages) {
  const locations = pages.map((page) => {
    const contentType = page.headers.find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "text/html";
    const added = page.headers
      .filter(([name]) => name.toLowerCase() !== "content-type")
      .map(([name, value]) => `      add_header ${name} ${quoted(value)} always;`)
      .join("\n");
    // A rewrite, not alias: "/" would otherwise be taken for a folder and looked up as an index.
    return `    location = ${page.path} {\n      default_type ${quoted(contentType)};\n      root ${path.dirname(page.file)};\n      rewrite ^ /${path.basename(page.file)} break;\n${added}\n    }`;
  });
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  types {}
  access_log off;
  server_tokens off;
  etag off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/tmp-body;
  proxy_temp_path ${dir}/tmp-proxy;
  fastcgi_temp_path ${dir}/tmp-fcgi;
  uwsgi_temp_path ${dir}/tmp-uwsgi;
  scgi_temp_path ${dir}/tmp-scgi;
  server {
    listen 127.0.0.1:${port};
    if_modified_since off;
    add_header Last-Modified "";
${locations.join("\n")}
  }
}
`;
}

/** `pages`: [{ path, file, headers: [[name, value], …] }]; nginx's files and logs go in `dir`. */
export async function startNginx(dir, pages) {
  const port = await freePort();
  const config = path.join(dir, "nginx.conf");
  fs.writeFileSync(config, nginxConfig(dir, port, pages));
  return startProgram({
    command: "nginx",
    args: ["-c", config, "-p", dir],
    port,
    isReady: async (base) => (await fetch(`${base}${pages[0].path}`)).status < 500,
    signal: "SIGQUIT",
  });
}

