"""LemonLDAP::NG's configuration (lmConf-1.json) for lemonldap-start, written to stdout.

The environment names the temporary folder (DIR, holding signing-key.pem, signing-key.pub
and client-secret), the ISSUER (the portal's own address), the relying party's REDIRECT_URI
and, if any, POST_LOGOUT_URI. The keys are those of LemonLDAP::NG 2.16 (Debian 12).
"""
import json
import os
import sys
import time

folder = os.environ["DIR"]
issuer = os.environ["ISSUER"]


def read(name):
    with open(os.path.join(folder, name)) as file:
        return file.read().strip()


def file_storage(name):
    return {"Directory": f"{folder}/{name}", "LockDirectory": f"{folder}/{name}/lock"}


tally = {
    "oidcRPMetaDataOptionsClientID": "tally",
    "oidcRPMetaDataOptionsClientSecret": read("client-secret"),
    "oidcRPMetaDataOptionsPublic": 0,
    "oidcRPMetaDataOptionsRedirectUris": os.environ["REDIRECT_URI"],
    "oidcRPMetaDataOptionsPostLogoutRedirectUris": os.environ.get("POST_LOGOUT_URI", ""),
    # A code without a challenge is refused; 2.16 has no switch to refuse `plain` too.
    "oidcRPMetaDataOptionsRequirePKCE": 1,
    "oidcRPMetaDataOptionsIDTokenSignAlg": "RS256",
    # The profile, e-mail and groups in the ID token itself, where a relying party reads them.
    "oidcRPMetaDataOptionsIDTokenForceClaims": 1,
    # `sub` is the uid, which never changes for a person.
    "oidcRPMetaDataOptionsUserIDAttr": "uid",
    "oidcRPMetaDataOptionsBypassConsent": 1,
    "oidcRPMetaDataOptionsLogoutBypassConfirm": 1,
    "oidcRPMetaDataOptionsDisplayName": "Tally",
}

conf = {
    "cfgNum": 1,
    "cfgVersion": "2.16.1",
    "cfgAuthor": "tally .ci/oidc/lemonldap-start",
    "cfgDate": str(int(time.time())),
    "portal": issuer,
    # The portal requires a cookie domain and sends `Domain=.localhost`; a browser keeps that
    # as a host-only cookie for localhost (an exact match), which is all a test needs.
    "domain": "localhost",
    "cookieName": "lemonldap",
    "securedCookie": 0,
    "sameSite": "Lax",
    "authentication": "Demo",
    "userDB": "Same",
    "passwordDB": "Demo",
    "registerDB": "Null",
    "demoExportedVars": {"cn": "cn", "mail": "mail", "uid": "uid"},
    "whatToTrace": "uid",
    "portalSkin": "bootstrap",
    "applicationList": {},
    "locationRules": {},
    "exportedHeaders": {},
    "loginHistoryEnabled": 0,
    "notification": 0,
    "globalStorage": "Apache::Session::File",
    "globalStorageOptions": {
        **file_storage("sessions"),
        "generateModule": "Lemonldap::NG::Common::Apache::Session::Generate::SHA256",
    },
    "persistentStorage": "Apache::Session::File",
    "persistentStorageOptions": file_storage("psessions"),
    "localSessionStorage": "Cache::FileCache",
    "localSessionStorageOptions": {
        "cache_root": f"{folder}/cache",
        "cache_depth": 3,
        "default_expires_in": 600,
        "namespace": "lemonldap-ng-sessions",
    },
    "issuerDBOpenIDConnectActivation": 1,
    "oidcServiceMetaDataIssuer": issuer,
    "oidcServicePrivateKeySig": read("signing-key.pem"),
    "oidcServicePublicKeySig": read("signing-key.pub"),
    "oidcServiceKeyIdSig": "tally-ci-" + str(int(time.time())),
    "oidcServiceAllowAuthorizationCodeFlow": 1,
    "oidcServiceAllowImplicitFlow": 0,
    "oidcServiceAllowHybridFlow": 0,
    "oidcServiceAllowDynamicRegistration": 0,
    "oidcServiceIgnoreScopeForClaims": 1,
    "oidcRPMetaDataOptions": {"tally": tally},
    "oidcRPMetaDataExportedVars": {
        "tally": {
            "name": "cn",
            "preferred_username": "uid",
            "email": "mail",
            # The demo backend's groups, always a JSON array.
            "groups": "groups;string;always",
        }
    },
    "oidcRPMetaDataOptionsExtraClaims": {"tally": {"groups": "groups"}},
    "oidcRPMetaDataMacros": {"tally": {}},
    "oidcRPMetaDataScopeRules": {"tally": {}},
}

json.dump(conf, sys.stdout, indent=1)
