import type { SectionTexts } from '../../texts';
import { serverTextZh } from './serverTexts';

/** 简体中文: start-up, login, the user menu and the app's frame. */
export const shell: SectionTexts<
  | 'app'
  | 'startup'
  | 'language'
  | 'theme'
  | 'http'
  | 'login'
  | 'accounts'
  | 'network'
  | 'narrow'
  | 'chartPage'
> = {
  app: {
    title: '交易终端',
    closeNotification: '关闭通知',
  },
  startup: {
    initializing: '正在初始化应用...',
    stepSharedModules: '正在注册共享模块',
    stepLiveConnection: '正在建立 WebSocket 连接',
    failedTitle: '应用初始化失败',
    websocketFailed: 'WebSocket 连接失败：',
    initFailed: '初始化失败：',
    reload: '重新加载',
  },
  language: {
    section: '语言',
    default: '默认',
    en: 'English',
    zh: '简体中文',
    failed: '无法加载该语言',
  },
  theme: {
    toDark: '切换到深色主题',
    toLight: '切换到浅色主题',
    section: '主题',
    light: '浅色',
    dark: '深色',
  },
  http: {
    tokenInvalid: 'Token验证失败',
    timeout: '请求超时',
    failedStatus: '请求失败，状态码 ',
    malformedAnswer: '无法识别的响应，来自',
    serverText: serverTextZh,
  },
  login: {
    title: '登录',
    subtitle: '模拟交易与图表终端',
    email: '邮箱',
    password: '密码',
    submit: '提交',
    emailRequired: '请输入邮箱',
    emailInvalid: '请输入有效的邮箱格式',
    passwordRequired: '请输入密码',
    success: '登录成功',
    noUserData: '获取用户数据失败',
    incorrect: '用户名或密码错误',
    failed: '登录失败，请稍后重试',
  },
  accounts: {
    switched: '已切换交易账户',
    none: '暂无交易账户',
    noCurrent: '无交易账户',
    current: '当前',
    menuLabel: '账户',
    profile: '个人资料',
    tradingAccounts: '交易账户',
    logout: '退出登录',
    level: (level: number) => `等级 ${level}`,
  },
  network: {
    title: '网络连接错误',
    content: '网络连接可能已中断。是否刷新页面以获取最新数据？',
    refresh: '刷新',
    cancel: '取消',
  },
  narrow: {
    bottomBar: '主导航',
    trading: '交易',
    my: '我的',
    chart: '图表',
    account: '账户',
    currentAccount: '当前账户',
    switchAccount: '切换交易账户',
  },
  chartPage: {
    loading: '正在加载品种和策略模板...',
  },
};
