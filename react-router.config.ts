import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // React Router 8's changes, each decided here (the build names any left undecided).
  future: {
    // Taken: the browser files and the server bundle come out the same (vite.config.ts names the
    // server's entry per environment).
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    // Not yet, each a change of its own before React Router 8:
    // - loaders and actions read the process's services as `context.db`, `context.payments`…
    //   (server/main/context.ts); with middleware the context is a RouterContextProvider read
    //   through `context.get(…)`, in every route;
    v8_middleware: false,
    // - about fifty route modules read `request.url`, which would then carry `.data` and
    //   `?_routes=` on data requests: each moves to the `url` argument first;
    v8_passThroughRequests: false,
    // - the root's data request becomes `/_.data`: the request metrics' route names
    //   (server/platform/metrics/route-patterns.ts) read today's forms.
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
